"""History commands: history (every version of a card) and revert."""

from __future__ import annotations

from typing import Any

import typer
from rich.table import Table

from graphmem.cli.app import (
    CardIdArgument,
    JsonOption,
    UserOption,
    app,
    console,
    open_memory,
    print_json,
    run,
)
from graphmem.cli.render import clean, safe
from graphmem.history import CardVersion
from graphmem.timeutil import to_iso

#: Fields a created version is summarised by (the rest is in --json).
_CREATED = ("fact", "person", "relationship", "status")
_WIDTH = 60
#: Fields holding epoch milliseconds, shown as UTC times.
_TIMES = frozenset({"timestamp", "valid_from", "valid_to", "forgotten_at", "last_feedback_at"})


@app.command()
def history(
    ctx: typer.Context,
    card_id: str = CardIdArgument,
    user: str = UserOption,
    as_json: bool = JsonOption,
) -> None:
    """Every version of a card, oldest first: what changed, when, how and decided by whom."""
    with open_memory(ctx) as memory:
        versions = run(lambda: memory.history(user, card_id))
    if as_json:
        print_json([v.model_dump(mode="json") for v in versions])
        return
    table = Table(title=safe(f"history of card {card_id} ({user})"))
    for column in ("version", "when", "change", "decided by", "what changed"):
        table.add_column(column, overflow="fold")
    for version in versions:
        table.add_row(
            f"{version.version}{' (current)' if version.current else ''}",
            (to_iso(version.at) or "")[:19].replace("T", " "),
            version.change,
            version.decided_by or "",
            describe(version),
        )
    console.print(table)


def describe(version: CardVersion) -> str:
    """One cell: the changed fields as ``field: old -> new`` (created: its main fields)."""
    if version.erased:
        return "(text erased)"
    if version.change == "create":
        state = version.state or {}
        lines = [f"{k}: {_short(state[k])}" for k in _CREATED if state.get(k) is not None]
    else:
        lines = [
            f"{c.field}: {_short(c.old, c.field)} -> {_short(c.new, c.field)}"
            for c in version.changes
        ]
    if version.note:
        lines.append(f"({_short(version.note)})")
    return "\n".join(lines) or "-"


def _short(value: Any, field: str = "") -> str:
    if value is None:
        return "-"
    if field in _TIMES and isinstance(value, int):
        return (to_iso(value) or str(value))[:19].replace("T", " ")
    return clean(value, _WIDTH)


@app.command()
def revert(
    ctx: typer.Context,
    card_id: str = CardIdArgument,
    user: str = UserOption,
    to: int = typer.Option(..., "--to", min=1, help="The version to bring back."),
    version: int | None = typer.Option(
        None,
        "--version",
        min=1,
        help="The card's current version as you saw it: refuse if it changed since.",
    ),
    as_json: bool = JsonOption,
) -> None:
    """Bring a card back to an earlier version (text, vector, status), as a new version."""
    with open_memory(ctx) as memory:
        card = run(lambda: memory.revert(user, card_id, to, version=version))
    if as_json:
        print_json(card.model_dump(mode="json"))
    else:
        console.print(
            safe(
                f"reverted {card.id} to version {to}: now version {card.version}, "
                f"{card.status.value}: {card.fact}"
            )
        )
