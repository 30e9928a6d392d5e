"""``graphmem bridge``: the agent-memory kit's HTTP bridge protocol, served by graphmem.

The kit (Neo4j Labs' agent-memory TCK) drives any implementation through ``POST
/{method}`` calls, one per ``BaseAdapter`` method, with the parameters as a flat JSON
body (``tck/bridge/protocol.md``). This app answers them with
``graphmem.integrations.agent_memory.GraphmemAdapter`` over one ``Memory`` and one user,
so the kit's scenarios -- and its TypeScript, Go, C#, R and Python clients -- run against
graphmem. Unimplemented (hosted-service) methods answer 501.

The protocol has no authentication and ``clear_all_data`` erases the bridge's user, so
the bridge listens on loopback only.
"""

from __future__ import annotations

import inspect
import json
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from tck.adapters.base_adapter import BaseAdapter, ToolCallStatus

from graphmem.errors import GraphmemError, NotFoundError, ValidationError
from graphmem.integrations.agent_memory import GraphmemAdapter
from graphmem.memory import Memory

PROTOCOL_VERSION = "0.2.0"
#: Every coroutine method of the kit's interface is a route.
METHODS = frozenset(
    name
    for name, member in vars(BaseAdapter).items()
    if inspect.iscoroutinefunction(member) and not name.startswith("_")
)
#: Methods whose "nothing" is a 204; for the rest (lookups) it is a JSON null.
VOID = frozenset(
    {"teardown", "clear_all_data", "clear_session", "delete_conversation", "delete_entity"}
)
UUID_PARAMS = frozenset(
    {
        "message_id",
        "entity_id",
        "trace_id",
        "step_id",
        "source_id",
        "target_id",
        "conversation_id",
    }
)


def _json(data: Any, status: int = 200) -> Response:
    return Response(json.dumps(data), status_code=status, media_type="application/json")


def _dump(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list):
        return [_dump(v) for v in value]
    return value


def _arguments(method: str, body: dict[str, Any]) -> dict[str, Any]:
    """The JSON body as the adapter method's keyword arguments (UUIDs, statuses)."""
    accepted = inspect.signature(getattr(BaseAdapter, method)).parameters
    unknown = sorted(set(body) - set(accepted))
    if unknown:
        raise ValidationError(f"{method} takes no parameter {unknown[0]!r}", field=unknown[0])
    out = dict(body)
    for name, value in body.items():
        if name in UUID_PARAMS and value is not None:
            try:
                out[name] = uuid.UUID(str(value))
            except ValueError:
                raise ValidationError(f"{name} must be a UUID", field=name) from None
        elif name == "status" and value is not None:
            try:
                out[name] = ToolCallStatus(value)
            except ValueError:
                raise ValidationError(f"unknown status {value!r}", field=name) from None
    return out


def create_bridge(memory: Memory, *, user_id: str = "tck") -> FastAPI:
    """The bridge app over ``memory`` (left open: the caller owns it) for ``user_id``."""
    adapter = GraphmemAdapter(memory, user_id=user_id)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await adapter.setup()
        yield

    app = FastAPI(
        title="graphmem agent-memory bridge",
        description="Neo4j Labs' agent-memory TCK bridge protocol, served by graphmem.",
        lifespan=lifespan,
    )

    @app.get("/health")
    async def health() -> dict[str, Any]:
        return {"status": "ok", "user_id": user_id, "protocol_version": PROTOCOL_VERSION}

    @app.post("/{method}")
    async def call(method: str, request: Request) -> Response:
        if method not in METHODS:
            return _json({"error": f"unknown method {method!r}"}, 404)
        raw = await request.body()
        try:
            body = json.loads(raw) if raw.strip() else {}
        except ValueError:
            return _json({"error": "the body must be a JSON object"}, 400)
        if not isinstance(body, dict):
            return _json({"error": "the body must be a JSON object"}, 400)
        try:
            result = await getattr(adapter, method)(**_arguments(method, body))
        except NotImplementedError as exc:
            return _json({"error": f"not implemented: {exc}"}, 501)
        except ValidationError as exc:
            return _json({"error": str(exc), "field": exc.field}, 400)
        except NotFoundError as exc:
            return _json({"error": str(exc)}, 404)
        except GraphmemError as exc:
            return _json({"error": f"{type(exc).__name__}: {exc}"}, 409)
        if method == "setup":
            return _json({"ok": True, "protocol_version": PROTOCOL_VERSION})
        if result is None:
            return Response(status_code=204) if method in VOID else _json(None)
        if isinstance(result, bool):
            return _json({"deleted": result})
        return JSONResponse(_dump(result))

    return app
