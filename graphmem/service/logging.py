"""Structured request logs: one JSON line per request, and a request id on every answer.

A line carries the method, the route *template* (``/v1/users/{user_id}/cards/{card_id}``,
never the filled-in path), status, duration, request id and user id. It never carries
the API key, a query or card text. An unhandled exception becomes a 500 with a generic
message and the request id; its traceback goes to the log, never into the response.
"""

from __future__ import annotations

import json
import logging
import sys
import time
import uuid
from typing import Any, TextIO

from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOGGER = "graphmem.service"
REQUEST_ID_HEADER = "x-request-id"
log = logging.getLogger(LOGGER)


class JsonFormatter(logging.Formatter):
    """``{"ts": ..., "level": ..., "logger": ..., "msg": ..., **fields}`` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        data |= getattr(record, "fields", {})
        if record.exc_info:
            data["error"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False, default=str)


class _JsonHandler(logging.StreamHandler[TextIO]):
    """graphmem's own handler: configuring twice adds it once."""


def configure_logging(level: int = logging.INFO) -> None:
    """Send graphmem's service logs to stderr as JSON lines (idempotent)."""
    logger = logging.getLogger(LOGGER)
    if not any(isinstance(h, _JsonHandler) for h in logger.handlers):
        handler = _JsonHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False


def _route_template(scope: Scope) -> str:
    route = scope.get("route")
    return getattr(route, "path", None) or "<unmatched>"


class RequestLogMiddleware:
    """Assigns the request id, times the request, logs one line, turns crashes into 500."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = uuid.uuid4().hex[:16]
        scope.setdefault("state", {})["request_id"] = request_id
        started = time.perf_counter()
        status = 500
        response_started = False

        async def send_with_id(message: Message) -> None:
            nonlocal status, response_started
            if message["type"] == "http.response.start":
                status = message["status"]
                response_started = True
                message.setdefault("headers", [])
                message["headers"] = [
                    *message["headers"],
                    (REQUEST_ID_HEADER.encode(), request_id.encode()),
                ]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception:
            log.error(
                "unhandled error", exc_info=True, extra={"fields": {"request_id": request_id}}
            )
            if not response_started:
                body = json.dumps(
                    {
                        "error": "internal_error",
                        "detail": "internal server error; quote the request id",
                        "field": None,
                        "request_id": request_id,
                    }
                ).encode()
                await send_with_id(
                    {
                        "type": "http.response.start",
                        "status": 500,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send_with_id({"type": "http.response.body", "body": body})
            status = 500
        finally:
            log.info(
                "request",
                extra={
                    "fields": {
                        "method": scope.get("method"),
                        "path": _route_template(scope),
                        "status": status,
                        "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                        "request_id": request_id,
                        "user_id": (scope.get("path_params") or {}).get("user_id"),
                    }
                },
            )
