"""graphmem as an MCP server (stdio), for agents that speak the Model Context Protocol.

One server serves one user, fixed at start: ``graphmem mcp --user alice`` or
``python -m graphmem.mcp_server --user alice``. The user is never a tool argument.
Tools: remember, recall, context, provenance, forget, feedback, history, profile, task_add,
task_update, task_ready, task_blocked (see ``graphmem.integrations.tools``). Built on the
official ``mcp`` SDK 2.x (``MCPServer``, which was ``FastMCP`` in 1.x). A graphmem error
(bad input, unknown card, conflict) reaches the model as the tool's error text.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any, cast

import anyio
import pydantic
from anyio.streams.memory import MemoryObjectSendStream
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import (
    INVALID_REQUEST,
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    jsonrpc_message_adapter,
)

from graphmem import __version__
from graphmem.errors import GraphmemError
from graphmem.integrations.tools import UserTools, raising
from graphmem.memory import Memory

INSTRUCTIONS = (
    "Long-term memory about the user and the people in their life. Call recall (or "
    "context) before answering questions that may depend on what the user told you "
    "earlier; call remember for each new durable fact (one atomic statement, with the "
    "person it is about and their relationship to the user); call feedback when a "
    "recalled memory helped or was wrong. Track multi-step work with the task_* tools."
)


def build_server(memory: Memory, user_id: str) -> MCPServer:
    """An MCP server whose tools read and write ``user_id``'s memory."""
    tools = UserTools(memory, user_id)
    server: MCPServer = MCPServer(
        name="graphmem", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )
    for name in UserTools.NAMES:
        server.add_tool(raising(ToolError)(getattr(tools, name)), name=name)
    return server


def serve_stdio(
    user_id: str, *, home: Path | str | None = None, neo4j_uri: str | None = None
) -> None:
    """Open memory, serve MCP over stdin/stdout until the client hangs up, close."""
    memory = Memory.open(home, neo4j_uri=neo4j_uri, keep_server=True)
    try:
        anyio.run(run_stdio, build_server(memory, user_id))
    finally:  # stop an embedded server we started, unless another client uses it
        memory.close(stop_server=memory.started_server)


async def run_stdio(server: MCPServer) -> None:
    """Serve over stdio, answering each line that is not a JSON-RPC message with a
    JSON-RPC error (-32700 not JSON, -32600 not a message), with the line's id when it
    has a valid one. The SDK logs such a line at debug level and drops it, answers it
    without its id, or takes a request whose id is not a string or a number for a
    notification and never answers: a client would wait forever for the answer."""
    errors: list[MemoryObjectSendStream[SessionMessage]] = []
    answering = anyio.Event()

    async def checked_lines() -> AsyncIterator[str]:
        """stdin's lines that the SDK reads as it should; the others answered here."""
        raw = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
        async for line in anyio.wrap_file(raw):
            error = line_error(line)
            if error is None:
                yield line
            else:
                await answering.wait()
                await errors[0].send(SessionMessage(error))
        raw.detach()  # sys.stdin's buffer is not ours to close

    stdin = cast(Any, checked_lines())  # stdio_server only iterates over its stdin
    async with stdio_server(stdin=stdin) as (read_stream, write_stream):
        errors.append(write_stream)
        answering.set()
        send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)

        async def forward() -> None:
            async with send:
                async for item in read_stream:
                    if isinstance(item, Exception):
                        await write_stream.send(SessionMessage(rejection(item)))
                    else:
                        await send.send(item)

        lowlevel = server._lowlevel_server  # what MCPServer.run_stdio_async runs, too
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(forward)
            await lowlevel.run(receive, write_stream, lowlevel.create_initialization_options())


def line_error(line: str) -> JSONRPCError | None:
    """The JSON-RPC error that answers ``line``, or None for a message the SDK takes.

    Examples:
        >>> line_error('{"jsonrpc": "2.0", "id": 8, "method": "ping"}') is None
        True
        >>> line_error('{"jsonrpc": "2.0", "id": 8, "method": "ping", "params": [1]}').id
        8
        >>> line_error('{"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}').error.code
        -32600
    """
    try:
        data = json.loads(line)
    except ValueError:
        return _error(None, PARSE_ERROR, "Parse error")
    if not isinstance(data, dict):
        return _error(None, INVALID_REQUEST, "Invalid Request")
    request_id = data.get("id")
    valid_id = type(request_id) in (str, int)  # JSON-RPC ids; never a bool, list or object
    if "id" in data and not valid_id and "method" in data:
        # taken for a notification otherwise, and never answered; an id that is not
        # one cannot be echoed, so the answer's is null, as JSON-RPC says
        return _error(None, INVALID_REQUEST, "Invalid Request")
    try:
        jsonrpc_message_adapter.validate_python(data, by_name=False)
    except pydantic.ValidationError:
        return _error(request_id if valid_id else None, INVALID_REQUEST, "Invalid Request")
    return None


def _error(request_id: str | int | None, code: int, message: str) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message))


def rejection(exc: Exception) -> JSONRPCError:
    """The JSON-RPC error for a line the transport could not read as a message."""
    not_json = isinstance(exc, pydantic.ValidationError) and any(
        e["type"] == "json_invalid" for e in exc.errors()
    )
    code, message = (
        (PARSE_ERROR, "Parse error") if not_json else (INVALID_REQUEST, "Invalid Request")
    )
    return JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=code, message=message))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m graphmem.mcp_server", description="graphmem MCP server (stdio), one user."
    )
    parser.add_argument("--user", required=True, help="The user whose memory to serve.")
    parser.add_argument(
        "--home",
        default=None,
        help="Data directory of the embedded store (default: $GRAPHMEM_HOME or ./.graphmem).",
    )
    parser.add_argument("--neo4j-uri", default=None, help="Use Neo4j at this Bolt URI.")
    args = parser.parse_args(argv)
    try:
        serve_stdio(args.user, home=args.home, neo4j_uri=args.neo4j_uri)
    except GraphmemError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
