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
import sys
from collections.abc import Sequence
from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

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
        build_server(memory, user_id).run("stdio")
    finally:
        memory.close()


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
