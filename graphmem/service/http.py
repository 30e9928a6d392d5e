"""The HTTP API: a thin FastAPI shell over one ``Memory`` per process.

Every route parses its body, checks the API key against the user in the path, calls one
``Memory`` method and maps graphmem errors to statuses (422 naming the field, 404, 409,
503; anything else a generic 500 with the request id). Routes are plain ``def`` so
FastAPI runs them in its threadpool: ``Memory`` is safe to share between threads (the
FalkorDB and Neo4j clients pool their connections, the embedder guards its cache with a
lock, card updates are guarded by versions and task writes by the task-graph version),
so no service-level lock is needed.

Run it with ``graphmem serve`` (uvicorn, loopback by default), or::

    uvicorn --factory graphmem.service.http:app_from_env
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import pydantic
from fastapi import APIRouter, Body, Depends, FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphmem import __version__
from graphmem.config import DEFAULT_MAX_BODY, Settings
from graphmem.consolidation import ConsolidationReport
from graphmem.errors import (
    ConflictError,
    GraphmemError,
    NotFoundError,
    QuotaExceededError,
    StoreUnavailableError,
    ValidationError,
)
from graphmem.history import CardVersion
from graphmem.memory import Memory
from graphmem.models import (
    MAX_OFFSET,
    Card,
    CardProvenance,
    Person,
    RememberResult,
    check_user_id,
)
from graphmem.profile import Profile
from graphmem.recall.engine import RecallHit
from graphmem.service import schemas as s
from graphmem.service.auth import ApiKeys, host_name, key_from_headers
from graphmem.service.logging import RequestLogMiddleware, log
from graphmem.tasks import BlockedTask, Task
from graphmem.timeutil import now_ms

if TYPE_CHECKING:
    from ingestion.pipeline import IngestReport

STATUS: list[tuple[type[GraphmemError], int, str]] = [
    (ValidationError, 422, "validation_error"),
    (NotFoundError, 404, "not_found"),
    (ConflictError, 409, "conflict"),
    (QuotaExceededError, 429, "quota_exceeded"),
]


@dataclass(frozen=True)
class ServiceSettings:
    """What the service needs besides memory: keys, the body limit, where memory is."""

    api_keys: ApiKeys = field(default_factory=ApiKeys)
    max_body_bytes: int = DEFAULT_MAX_BODY
    home: Path | None = None
    neo4j_uri: str | None = None
    #: the ``Host`` names answered (``auth.hosts_for_bind``); None: any (a test client,
    #: an app mounted behind a proxy). ``graphmem serve`` sets them from its bind.
    allowed_hosts: frozenset[str] | None = None

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, **overrides: Any
    ) -> ServiceSettings:
        """From the environment (read by ``graphmem.config.Settings``); ``overrides`` that
        are not None win."""
        return cls.from_settings(Settings.from_env(environ), **overrides)

    @classmethod
    def from_settings(cls, settings: Settings, **overrides: Any) -> ServiceSettings:
        values: dict[str, Any] = {
            "api_keys": ApiKeys.from_settings(settings),
            "max_body_bytes": settings.max_body_bytes,
            "home": settings.home,
            "neo4j_uri": settings.neo4j.uri,
        }
        values |= {k: v for k, v in overrides.items() if v is not None}
        return cls(**values)


# -- middleware -------------------------------------------------------------------------
class BodyLimitMiddleware:
    """413 for bodies over the limit, by Content-Length or while streaming.

    A streamed body that grows too large gets its 413 at once; the app then sees the
    client as gone, and whatever it answers to that is dropped.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(scope, send)
            return
        seen = 0
        refused = started = False

        async def counting_receive() -> Message:
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes and not started:
                    refused = True
                    await self._refuse(scope, send)
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, counting_receive, guarded_send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        detail = f"request body over {self.max_bytes} bytes"
        await _send_error(scope, send, 413, "payload_too_large", detail, field="body")


class BrowserGuardMiddleware:
    """Refuse what only a web page would send: a ``Host`` the server was not bound to
    (DNS rebinding: a page on a name of its own that resolves to 127.0.0.1 would read
    every user of a no-key server) and an ``Origin`` other than the server itself (a
    cross-site "simple" POST needs no preflight, so CORS alone does not stop it)."""

    def __init__(self, app: ASGIApp, allowed_hosts: frozenset[str] | None) -> None:
        self.app, self.allowed_hosts = app, allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}
        host = headers.get(b"host", "")
        if self.allowed_hosts is not None and host_name(host) not in self.allowed_hosts:
            detail = "the Host header does not name the address this server is bound to"
            await _send_error(scope, send, 421, "misdirected_request", detail, field="host")
            return
        origin = headers.get(b"origin")
        if origin is not None and not _same_origin(origin, host):
            detail = "requests from another web origin are refused"
            await _send_error(scope, send, 403, "cross_origin", detail, field="origin")
            return
        await self.app(scope, receive, send)


def _same_origin(origin: str, host: str) -> bool:
    """Does ``Origin`` (``scheme://authority``) name the server the ``Host`` header
    names? ``null`` (a sandboxed page, a file) never does.

    >>> _same_origin("http://127.0.0.1:8420", "127.0.0.1:8420")
    True
    >>> _same_origin("https://evil.example", "127.0.0.1:8420"), _same_origin("null", "x")
    (False, False)
    """
    scheme, sep, authority = origin.strip().lower().partition("://")
    if not sep or not authority:
        return False
    default = {"http": ":80", "https": ":443"}.get(scheme, "")
    host = host.strip().lower()
    return authority.removesuffix(default) == host.removesuffix(default)


async def _send_error(
    scope: Scope, send: Send, status: int, code: str, detail: str, *, field: str
) -> None:
    """An error answer of the usual shape, sent before the app sees the request."""
    body = json.dumps(
        {
            "error": code,
            "detail": detail,
            "field": field,
            "request_id": scope.get("state", {}).get("request_id"),
        }
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


# -- errors -----------------------------------------------------------------------------
def _error(
    request: Request,
    status: int,
    code: str,
    detail: str,
    field: str | None = None,
    *,
    errors: list[dict[str, str]] | None = None,
) -> JSONResponse:
    """Every error answer has one shape (``schemas.ErrorOut``): a code, a sentence, the
    field at fault (dotted, or None), the request id, and for bad input every field
    with its message."""
    content: dict[str, Any] = {
        "error": code,
        "detail": detail,
        "field": field,
        "request_id": getattr(request.state, "request_id", None),
    }
    if errors is not None:
        content["errors"] = errors
    return JSONResponse(status_code=status, content=content)


#: Parts of a pydantic error location that name a union member, not a field.
_UNION_TAG = re.compile(r"^(int|str|float|bool|none|list\[.*\]|dict\[.*\]|[\w-]+\[.*\])$")


def _field(loc: Sequence[Any]) -> str:
    """``("body", "cards", 1, "timestamp", "int")`` -> ``cards.1.timestamp``."""
    parts = [str(p) for p in loc]
    if parts and parts[0] in ("body", "query", "path", "header"):
        parts = parts[1:] if len(parts) > 1 or parts[0] == "body" else parts
    return ".".join(p for p in parts if not _UNION_TAG.match(p)) or "body"


def _graphmem_error(request: Request, exc: Exception) -> JSONResponse:
    request_id = getattr(request.state, "request_id", None)
    if isinstance(exc, StoreUnavailableError):  # its text names sockets and hosts: log it
        # The first line says why; the store's own log tail, if any, is logged once by
        # the store when it restarts (or fails to restart) the server, not per request.
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        log.warning("store unavailable: %s", reason, extra={"fields": {"request_id": request_id}})
        return _error(
            request, 503, "store_unavailable", "the memory store is unavailable; retry later"
        )
    if isinstance(exc, QuotaExceededError):  # the field names the limit
        response = _error(request, 429, "quota_exceeded", str(exc), exc.limit)
        if exc.retry_after is not None:  # only waiting frees the write rate
            response.headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
        return response
    for kind, status, code in STATUS:
        if isinstance(exc, kind):
            if isinstance(exc, ValidationError):
                errors = [{"field": f, "message": m} for f, m in exc.errors] or None
                return _error(request, status, code, str(exc), exc.field, errors=errors)
            return _error(request, status, code, str(exc))
    log.error("graphmem error", exc_info=exc, extra={"fields": {"request_id": request_id}})
    return _error(request, 500, "internal_error", "internal server error; quote the request id")


def _model_error(request: Request, exc: Exception) -> JSONResponse:
    """A library model refused what a route built from the request: bad input (422).
    Routes should turn input into models at the edge; this is the net under them."""
    assert isinstance(exc, pydantic.ValidationError)
    log.warning(
        "a library model refused request data",
        exc_info=exc,
        extra={"fields": {"request_id": getattr(request.state, "request_id", None)}},
    )
    return _graphmem_error(request, ValidationError.from_pydantic(exc))


def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = []
    for err in exc.errors():
        if err.get("type") == "json_invalid":  # loc holds a character offset, not a field
            where = err.get("ctx", {}).get("error", "")
            errors.append({"field": "body", "message": f"not valid JSON: {where}".strip(": ")})
            continue
        errors.append({"field": _field(err.get("loc", ())), "message": str(err.get("msg"))})
    errors = list({(e["field"], e["message"]): e for e in errors}.values())  # union members
    detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors[:5])
    field = errors[0]["field"] if errors else "body"
    return _error(request, 422, "validation_error", detail, field, errors=errors)


def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    codes = {
        401: "unauthorized",
        403: "forbidden",
        404: "not_found",
        405: "method_not_allowed",
        415: "unsupported_media_type",
    }
    response = _error(
        request, exc.status_code, codes.get(exc.status_code, "http_error"), str(exc.detail)
    )
    for name, value in (exc.headers or {}).items():
        response.headers[name] = value
    return response


# -- dependencies -----------------------------------------------------------------------
bearer = HTTPBearer(auto_error=False, description="Authorization: Bearer <API key>")
api_key_header = APIKeyHeader(name="X-API-Key", auto_error=False)


def get_memory(request: Request) -> Memory:
    return request.app.state.memory


def authorized_user(
    request: Request,
    user_id: str,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    x_api_key: Annotated[str | None, Depends(api_key_header)],
) -> str:
    """The user of the path, once the request's key is known to grant it."""
    check_user_id(user_id)
    keys: ApiKeys = request.app.state.settings.api_keys
    if not keys.enabled:
        return user_id
    authorization = f"Bearer {credentials.credentials}" if credentials else None
    key = key_from_headers(authorization, x_api_key)
    if key is None or keys.users_of(key) is None:
        raise HTTPException(
            401, "missing or unknown API key", headers={"WWW-Authenticate": "Bearer"}
        )
    if not keys.allows(key, user_id):
        raise HTTPException(403, "this API key may not access that user")
    return user_id


User = Annotated[str, Depends(authorized_user)]
Mem = Annotated[Memory, Depends(get_memory)]


# -- routes -----------------------------------------------------------------------------
cards = APIRouter(prefix="/v1/users/{user_id}", tags=["cards"])
recall = APIRouter(prefix="/v1/users/{user_id}", tags=["recall"])
ingest = APIRouter(prefix="/v1/users/{user_id}/ingest", tags=["ingest"])
tasks = APIRouter(prefix="/v1/users/{user_id}/tasks", tags=["tasks"])
transfer = APIRouter(prefix="/v1/users/{user_id}", tags=["export / import"])
ops = APIRouter(tags=["service"])


@cards.post("/cards", response_model=Card)
def remember(user: User, memory: Mem, body: s.CardIn) -> Card:
    """Remember one card (idempotent: the same content twice is one card)."""
    return memory.remember(body.to_card(user))


@cards.post("/cards:batch", response_model=RememberResult)
def remember_batch(user: User, memory: Mem, body: s.CardBatch) -> RememberResult:
    """Remember many cards; all are validated before any is written."""
    parsed, now = [], now_ms()
    for i, card in enumerate(body.cards):
        try:
            parsed.append(card.to_card(user, now=now))
        except ValidationError as exc:
            raise ValidationError(str(exc), field=f"cards.{i}.{exc.field}") from None
    return memory.remember_many(parsed)


@cards.get("/cards", response_model=list[Card])
def list_cards(
    user: User,
    memory: Mem,
    status: Annotated[str, Query(description="active, superseded, forgotten or all")] = "active",
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> list[Card]:
    """A user's cards, newest first."""
    if status not in ("active", "superseded", "forgotten", "all"):
        raise ValidationError("status must be active, superseded, forgotten or all", field="status")
    return memory.cards(
        user, status=None if status == "all" else status, limit=limit, offset=offset
    )


@cards.get("/cards/{card_id}", response_model=Card)
def get_card(user: User, memory: Mem, card_id: str) -> Card:
    """One card with everything stored about it."""
    return memory.get(user, card_id)


@cards.post("/cards/{card_id}/forget", response_model=s.ForgetOut)
def forget(
    user: User, memory: Mem, card_id: str, body: Annotated[s.ForgetIn | None, Body()] = None
) -> s.ForgetOut:
    """Forget a card: restorable by default, erased for good with ``hard``."""
    body = body or s.ForgetIn()
    full_id = memory.forget(user, card_id, hard=body.hard, reason=body.reason)
    return s.ForgetOut(id=full_id, hard=body.hard)


@cards.post("/cards/{card_id}/restore", response_model=Card)
def restore(user: User, memory: Mem, card_id: str) -> Card:
    """Bring a soft-forgotten card back (409 when it is not forgotten)."""
    return memory.restore(user, card_id)


@cards.get("/cards/{card_id}/provenance", response_model=CardProvenance)
def provenance(user: User, memory: Mem, card_id: str) -> CardProvenance:
    """Where a card came from: source turn or passage, supersessions, conflicts,
    abstractions."""
    return memory.provenance(user, card_id)


@cards.get("/cards/{card_id}/history", response_model=list[CardVersion])
def history(user: User, memory: Mem, card_id: str) -> list[CardVersion]:
    """Every version of a card, oldest first: what changed (old and new values), when,
    by which operation, decided by whom; an erased card's history without its text."""
    return memory.history(user, card_id)


@cards.post("/cards/{card_id}/revert", response_model=Card)
def revert(user: User, memory: Mem, card_id: str, body: s.RevertIn) -> Card:
    """Bring a card back to an earlier version (text, vector, status) as a new version
    (409 when ``version`` is stale)."""
    return memory.revert(user, card_id, body.to_version, version=body.version)


@recall.post("/recall", response_model=list[RecallHit])
def recall_cards(user: User, memory: Mem, body: s.RecallIn) -> list[RecallHit]:
    """The most useful cards for a query (vector + full-text + graph), best first."""
    return memory.recall(user, body.query, **body.model_dump(exclude={"query"}))


@recall.post("/context", response_model=s.ContextOut)
def context(user: User, memory: Mem, body: s.ContextIn) -> s.ContextOut:
    """A compact memory block for a prompt, never over the token budget."""
    return s.ContextOut(
        context=memory.context(
            user,
            body.query,
            token_budget=body.token_budget,
            k=body.k,
            min_relevance=body.min_relevance,
        )
    )


@recall.get(
    "/profile",
    response_model=Profile,
    responses={200: {"content": {"text/markdown": {"schema": {"type": "string"}}}}},
)
def profile(
    user: User,
    memory: Mem,
    format: Annotated[
        Literal["json", "markdown"],
        Query(description="json: the sections; markdown: the rendered document."),
    ] = "json",
    as_of: Annotated[str | None, Query(description="As memory held it then.")] = None,
    known_at: Annotated[str | None, Query(description="With as_of: by what it knew then.")] = None,
) -> Any:
    """A readable profile rendered from the graph: who the user is, preferences and
    constraints, people, themes, recent events, open tasks; every line links to its card."""
    made = memory.profile(user, as_of=as_of, known_at=known_at)
    if format == "markdown":
        return Response(made.markdown(), media_type="text/markdown; charset=utf-8")
    return made


@recall.get("/people", response_model=list[Person])
def people(user: User, memory: Mem) -> list[Person]:
    """The people in the user's life, their relationship (and its history), card counts."""
    return memory.people(user)


# -- ingest -----------------------------------------------------------------------------
def _ingested(report: IngestReport) -> s.IngestOut:
    return s.IngestOut(
        ids=report.ids,
        cards=report.cards,
        created=report.created,
        unchanged=report.unchanged,
        updated=report.updated,
        people=[p.name for p in report.people],
        to_review=[
            s.Review(mention=r.mention, maybe=r.candidates, where=r.where) for r in report.reviews
        ],
        speakers={k: s.TurnCounts(**asdict(v)) for k, v in report.speakers.items()},
        languages={k: s.TurnCounts(**asdict(v)) for k, v in report.languages.items()},
    )


@ingest.post("/conversation", response_model=s.IngestOut)
def ingest_conversation(user: User, memory: Mem, body: s.ConversationIn) -> s.IngestOut:
    """Extract cards from conversation turns (who said what, about whom, when), as
    `graphmem ingest` does from a conversation file; the people learnt are stored too."""
    from ingestion import ingest_turns

    turns = [t.model_dump(exclude_none=True) for t in body.turns]
    return _ingested(ingest_turns(memory, turns, user))


@ingest.post("/text", response_model=s.IngestOut)
def ingest_text(user: User, memory: Mem, body: s.TextIn) -> s.IngestOut:
    """Extract cards from a document's text, passage by passage, as `graphmem ingest`
    does from a text file of that name written at ``timestamp``."""
    from graphmem.timeutil import to_ms
    from ingestion import ingest_text

    try:
        when = to_ms(body.timestamp) if body.timestamp is not None else None
    except ValueError as exc:
        raise ValidationError(f"timestamp: {exc}", field="timestamp") from None
    return _ingested(ingest_text(memory, body.text, user, document=body.document, timestamp=when))


@ingest.post("/cards", response_model=s.IngestOut)
def ingest_cards(user: User, memory: Mem, body: s.CardsIn) -> s.IngestOut:
    """Store Advanced JSON Card records as they are (a record of another user is a 422)."""
    from ingestion import ingest_cards

    return _ingested(ingest_cards(memory, body.cards, user))


# -- tasks ------------------------------------------------------------------------------
@tasks.post("", response_model=Task, status_code=201)
def create_task(user: User, memory: Mem, body: s.TaskIn) -> Task:
    """Create a pending task (409 if a dependency would close a cycle)."""
    return memory.tasks.create(
        user,
        body.subject,
        body.description,
        blocked_by=body.blocked_by,
        owner=body.owner,
        cites=body.cites,
        task_id=body.id,
    )


@tasks.get("", response_model=list[Task])
def list_tasks(user: User, memory: Mem, status: str | None = None) -> list[Task]:
    """A user's tasks, oldest first, optionally of one status."""
    return memory.tasks.list(user, status)


@tasks.get("/ready", response_model=list[Task])
def ready_tasks(user: User, memory: Mem) -> list[Task]:
    """Pending tasks with nothing open blocking them."""
    return memory.tasks.ready(user)


@tasks.get("/blocked", response_model=list[BlockedTask])
def blocked_tasks(user: User, memory: Mem) -> list[BlockedTask]:
    """Open tasks waiting on open blockers, with those blockers."""
    return memory.tasks.blocked(user)


@tasks.get("/done", response_model=list[Task])
def done_tasks(user: User, memory: Mem) -> list[Task]:
    """Completed tasks, oldest first."""
    return memory.tasks.done(user)


@tasks.get("/{task_id}", response_model=Task)
def get_task(user: User, memory: Mem, task_id: str) -> Task:
    """One task with both directions of its dependencies and its cited cards."""
    return memory.tasks.get(user, task_id)


@tasks.patch("/{task_id}", response_model=Task)
def update_task(user: User, memory: Mem, task_id: str, body: s.TaskUpdateIn) -> Task:
    """Change a task: status, fields, dependencies, citations (only the fields given)."""
    given = {
        name: getattr(body, name)
        for name in ("owner", "subject", "description")
        if name in body.model_fields_set
    }
    return memory.tasks.update(
        user,
        task_id,
        status=body.status,
        add_blocked_by=body.add_blocked_by,
        remove_blocked_by=body.remove_blocked_by,
        add_blocks=body.add_blocks,
        cites=body.cites,
        expected_version=body.expected_version,
        force=body.force,
        **given,
    )


@tasks.post("/{task_id}/complete", response_model=Task)
def complete_task(
    user: User, memory: Mem, task_id: str, body: Annotated[s.CompleteIn | None, Body()] = None
) -> Task:
    """Mark a task completed (409 while a blocker is open, unless ``force``)."""
    body = body or s.CompleteIn()
    return memory.tasks.complete(
        user, task_id, force=body.force, expected_version=body.expected_version
    )


# -- export / import --------------------------------------------------------------------
#: Content types ``/import`` accepts: JSON Lines under its usual names, or JSON.
IMPORT_TYPES = (
    "application/x-ndjson",
    "application/json",
    "application/jsonl",
    "application/x-jsonlines",
    "application/jsonlines",
)


@transfer.get(
    "/export",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {"application/x-ndjson": {}},
            "description": "The user's memory as JSON Lines (see graphmem.export).",
        }
    },
)
def export(user: User, memory: Mem, with_embeddings: bool = False) -> StreamingResponse:
    """Everything of the user, losslessly, one JSON record per line."""
    from graphmem.export import export_records

    records = export_records(memory, user, with_embeddings=with_embeddings)
    first = next(records)  # runs the completeness check before the 200 goes out

    def lines() -> Iterator[str]:
        for record in itertools.chain([first], records):
            yield json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n"

    return StreamingResponse(lines(), media_type="application/x-ndjson")


@transfer.post(
    "/import",
    response_model=s.ImportOut,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/x-ndjson": {
                    "schema": {"type": "string"},
                    "example": '{"type": "header", "format": "graphmem-export", "version": 1, '
                    '"user_id": "alice", "embeddings": false, "dimension": null}\n',
                }
            },
        }
    },
)
async def import_(user: User, request: Request) -> s.ImportOut:
    """Import an export (JSON Lines) into this user; importing twice changes nothing."""
    from graphmem.export import import_file

    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if kind not in IMPORT_TYPES:  # text/plain or none: what a cross-site form can send
        raise HTTPException(
            415, f"send the export as {' or '.join(IMPORT_TYPES[:2])} (Content-Type)"
        )
    try:
        body = (await request.body()).decode("utf-8")
    except UnicodeDecodeError:
        raise ValidationError("the export must be UTF-8 text", field="body") from None
    report = await run_in_threadpool(
        import_file, request.app.state.memory, body.splitlines(), user_id=user
    )
    return s.ImportOut(user_id=report.user_id, counts=report.counts)


@ops.get("/health", response_model=s.Health, responses={503: {"model": s.Health}})
def health(request: Request) -> Any:
    """Is the store reachable? No API key needed; says nothing about any user."""
    memory: Memory = request.app.state.memory
    dialect = memory.backend
    if not memory.health():
        return JSONResponse(
            status_code=503,
            content=s.Health(status="unavailable", version=__version__, store=dialect).model_dump(),
        )
    return s.Health(status="ok", version=__version__, store=dialect)


@cards.post("/cards/{card_id}/feedback", response_model=Card)
def feedback(user: User, memory: Mem, card_id: str, body: s.FeedbackIn) -> Card:
    """Thumbs up/down or a 1-5 rating: moves the card's reward and confidence (recall
    ranks by them); negative feedback flags it ``needs_revision``."""
    return memory.feedback(user, card_id, body.signal)


@recall.post("/consolidate", response_model=ConsolidationReport, tags=["consolidation"])
def consolidate(
    user: User, memory: Mem, body: Annotated[s.ConsolidateIn | None, Body()] = None
) -> ConsolidationReport:
    """Resolve conflicts, build abstractions, forget faded cards (or report, dry run)."""
    body = body or s.ConsolidateIn()
    return memory.consolidate(user, tuple(body.steps), dry_run=body.dry_run, seed=body.seed)


# -- the app ----------------------------------------------------------------------------
MemorySource = Memory | Callable[[], Memory] | None


def create_app(memory: MemorySource = None, *, settings: ServiceSettings | None = None) -> FastAPI:
    """The FastAPI app. ``memory``: a ``Memory`` to serve (left open at shutdown), a
    factory called once at startup (closed at shutdown: an embedded server it started
    stops unless another client uses it; one it found running keeps running), or None
    to open the one ``settings`` point at."""
    settings = settings or ServiceSettings.from_env()
    home, neo4j_uri = settings.home, settings.neo4j_uri

    def default() -> Memory:
        return Memory.open(home, neo4j_uri=neo4j_uri)

    given = memory if isinstance(memory, Memory) else None
    factory: Callable[[], Memory] = (
        default if memory is None or isinstance(memory, Memory) else memory
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        opened = given if given is not None else await run_in_threadpool(factory)
        app.state.memory = opened
        try:
            yield
        finally:
            if given is None:
                await run_in_threadpool(lambda: opened.close(stop_server=opened.started_server))

    app = FastAPI(
        title="graphmem",
        version=__version__,
        lifespan=lifespan,
        description="Knowledge-graph memory for LLM agents. Every route but "
        "/health is scoped to the user in its path and needs an "
        "API key granting that user (when keys are configured).",
    )
    app.state.settings = settings
    from graphmem.service.agent import ROUTERS as AGENT_ROUTERS

    for router in (cards, recall, ingest, tasks, transfer, ops, *AGENT_ROUTERS):
        app.include_router(router)
    from graphmem.service import explore  # the explorer page and its graph routes

    app.include_router(explore.graph)
    explore.mount_page(app)
    app.add_exception_handler(GraphmemError, _graphmem_error)
    app.add_exception_handler(pydantic.ValidationError, _model_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(BrowserGuardMiddleware, allowed_hosts=settings.allowed_hosts)
    app.add_middleware(RequestLogMiddleware)
    return app


def app_from_env() -> FastAPI:
    """Factory for ``uvicorn --factory``: settings and keys from the environment."""
    return create_app()
