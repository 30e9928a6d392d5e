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
from typer.core import TyperGroup

from graphmem.cli.render import json_text, safe
from graphmem.errors import (
    ConflictError,
    GraphmemError,
    NotFoundError,
    QuotaExceededError,
    StoreUnavailableError,
    ValidationError,
)
from graphmem.launcher import hoist_global_options

#: Exit codes: 0 ok, 1 other error, 2 bad input/usage, 3 not found, 4 conflict,
#: 5 store unavailable, 6 over a quota.
EXIT_CODES: dict[type[GraphmemError], int] = {
    ValidationError: 2,
    NotFoundError: 3,
    ConflictError: 4,
    StoreUnavailableError: 5,
    QuotaExceededError: 6,
}


class GraphmemGroup(TyperGroup):
    """The top-level group: global options are read wherever they are given."""

    # ``ctx`` is the click Context typer vendors in a private module (typer._click): it
    # cannot be named here, and click's own Context is a different class.
    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, hoist_global_options(args))


app = typer.Typer(
    name="graphmem",
    cls=GraphmemGroup,
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


def _print_version(value: bool) -> None:
    if value:
        from graphmem import __version__

        typer.echo(f"graphmem {__version__}")
        raise typer.Exit()


@app.callback()
def _global(
    ctx: typer.Context,
    home: Path | None = typer.Option(
        None,
        "--home",
        envvar="GRAPHMEM_HOME",
        help="Data directory of the embedded store (default: ./.graphmem); before or "
        "after the command.",
    ),
    neo4j_uri: str | None = typer.Option(
        None,
        "--neo4j-uri",
        envvar="GRAPHMEM_NEO4J_URI",
        help="Use Neo4j at this Bolt URI instead of the embedded store.",
    ),
    version: bool = typer.Option(
        False,
        "--version",
        is_eager=True,
        callback=_print_version,
        help="Print graphmem's version and exit.",
    ),
) -> None:
    ctx.obj = Options(home=home, neo4j_uri=neo4j_uri)


@dataclass
class _Shared:
    #: the open Memory of the graphmem daemon (``graphmem.daemon``) this process is
    memory: Any = None


_shared = _Shared()


def share_memory(memory: Any) -> None:
    """Make commands use ``memory`` (the daemon's, held open) instead of opening one."""
    _shared.memory = memory


def reset_consoles() -> None:
    """Make the consoles anew for the terminal and environment of this call: a rich
    Console reads them (colour, width, FORCE_COLOR...) when made, and the daemon runs
    each call with the caller's (``graphmem.daemon``)."""
    console.__init__()  # type: ignore[misc]
    err_console.__init__(stderr=True)  # type: ignore[misc]


@contextmanager
def open_memory(ctx: typer.Context) -> Iterator[Any]:
    """Open memory for one command; the embedded server stays up for the next call."""
    from graphmem.memory import Memory

    shared = _shared.memory
    if shared is not None:
        try:
            yield shared
        finally:
            shared.accesses.flush()  # what closing would write lands before the next call
        return
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
