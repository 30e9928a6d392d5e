"""The `graphmem` command: a thin shell over ``Memory``.

Each command parses its arguments, calls one ``Memory`` method and prints the result
(a rich table, or JSON with ``--json``). Errors map to exit codes scripts can rely on.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import typer
from rich.console import Console
from rich.text import Text

from graphmem.cli.render import json_text, safe
from graphmem.errors import (
    ConflictError,
    GraphmemError,
    NotFoundError,
    QuotaExceededError,
    StoreUnavailableError,
    ValidationError,
)

#: Exit codes: 0 ok, 1 other error, 2 bad input/usage, 3 not found, 4 conflict,
#: 5 store unavailable, 6 over a quota.
EXIT_CODES: dict[type[GraphmemError], int] = {
    ValidationError: 2,
    NotFoundError: 3,
    ConflictError: 4,
    StoreUnavailableError: 5,
    QuotaExceededError: 6,
}

app = typer.Typer(
    name="graphmem",
    no_args_is_help=True,
    add_completion=False,
    help="Knowledge-graph memory for LLM agents: remember, recall, consolidate.",
)
console = Console()
err_console = Console(stderr=True)
T = TypeVar("T")


@dataclass
class Options:
    home: Path | None
    neo4j_uri: str | None


@app.callback()
def _global(
    ctx: typer.Context,
    home: Path | None = typer.Option(
        None,
        "--home",
        envvar="GRAPHMEM_HOME",
        help="Data directory of the embedded store (default: ./.graphmem).",
    ),
    neo4j_uri: str | None = typer.Option(
        None,
        "--neo4j-uri",
        envvar="GRAPHMEM_NEO4J_URI",
        help="Use Neo4j at this Bolt URI instead of the embedded store.",
    ),
) -> None:
    ctx.obj = Options(home=home, neo4j_uri=neo4j_uri)


@contextmanager
def open_memory(ctx: typer.Context) -> Iterator[Any]:
    """Open memory for one command; the embedded server stays up for the next call."""
    from graphmem.memory import Memory

    options: Options = ctx.obj
    memory = run(lambda: Memory.open(options.home, neo4j_uri=options.neo4j_uri, keep_server=True))
    try:
        yield memory
    finally:
        memory.close()


def run(action: Callable[[], T]) -> T:
    """Call ``action``; turn graphmem errors into a message and the right exit code."""
    try:
        return action()
    except GraphmemError as exc:
        code = next((c for t, c in EXIT_CODES.items() if isinstance(exc, t)), 1)
        err_console.print(Text("error: ", style="red") + safe(str(exc), limit=2000))
        raise typer.Exit(code) from None


def print_json(data: Any) -> None:
    """JSON for machines on stdout (control characters escaped, see ``render``)."""
    sys.stdout.write(json_text(data) + "\n")


UserOption = typer.Option(..., "--user", "-u", help="The user (tenant) whose memory to use.")
JsonOption = typer.Option(False, "--json", help="Print JSON instead of a table.")
CardIdArgument = typer.Argument(
    ..., help="Card id, or a unique prefix of it (6+ characters, as tables show)."
)
