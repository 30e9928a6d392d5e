"""Card commands: remember, show, list, forget, restore."""

from __future__ import annotations

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
from graphmem.models import Card
from graphmem.timeutil import to_iso


def card_table(cards: list[Card], title: str) -> Table:
    table = Table(title=title)
    for column in ("id", "person", "relationship", "fact", "when", "status"):
        table.add_column(column, overflow="fold")
    for card in cards:
        table.add_row(
            card.id[:12],
            card.person,
            card.relationship or "",
            card.fact,
            (to_iso(card.timestamp) or "")[:10],
            card.status.value,
        )
    return table


@app.command()
def remember(
    ctx: typer.Context,
    fact: str = typer.Argument(..., help="One atomic statement."),
    user: str = UserOption,
    person: str = typer.Option("me", help="Who the fact is about."),
    relationship: str | None = typer.Option(None, help="Their relationship to you."),
    backstory: str = typer.Option("", help="Where/how this came up."),
    timestamp: str | None = typer.Option(None, help="When (ISO-8601); default now."),
    category: str = typer.Option("other", help="preference, constraint, life, ..."),
    as_json: bool = JsonOption,
) -> None:
    """Remember one fact about a user (idempotent: the same fact twice is one card)."""
    data = {
        "user_id": user,
        "fact": fact,
        "person": person,
        "relationship": relationship,
        "backstory": backstory,
        "category": category,
    }
    if timestamp:
        data["timestamp"] = timestamp
    with open_memory(ctx) as memory:
        card = run(lambda: memory.remember(data))
    if as_json:
        print_json(card.model_dump(mode="json"))
    else:
        console.print(f"remembered [bold]{card.id}[/bold] (version {card.version})")


@app.command()
def show(
    ctx: typer.Context,
    card_id: str = CardIdArgument,
    user: str = UserOption,
    as_json: bool = JsonOption,
) -> None:
    """Show one card with everything stored about it."""
    with open_memory(ctx) as memory:
        card = run(lambda: memory.get(user, card_id))
    if as_json:
        print_json(card.model_dump(mode="json"))
    else:
        console.print_json(card.model_dump_json())


@app.command("list")
def list_cards(
    ctx: typer.Context,
    user: str = UserOption,
    status: str = typer.Option("active", help="active, superseded, forgotten or all."),
    limit: int = typer.Option(50, min=1, help="At most this many, newest first."),
    as_json: bool = JsonOption,
) -> None:
    """List a user's cards, newest first."""
    with open_memory(ctx) as memory:
        cards = run(
            lambda: memory.cards(user, status=None if status == "all" else status, limit=limit)
        )
    if as_json:
        print_json([c.model_dump(mode="json") for c in cards])
    else:
        console.print(card_table(cards, f"{len(cards)} cards of {user}"))


@app.command()
def forget(
    ctx: typer.Context,
    card_id: str = CardIdArgument,
    user: str = UserOption,
    hard: bool = typer.Option(
        False, "--hard", help="Erase text and vector for good (not restorable)."
    ),
) -> None:
    """Forget a card: restorable by default, erased with --hard."""
    with open_memory(ctx) as memory:
        full_id = run(lambda: memory.forget(user, card_id, hard=hard))
    console.print(f"{'erased' if hard else 'forgot'} {full_id}")


@app.command()
def restore(ctx: typer.Context, card_id: str = CardIdArgument, user: str = UserOption) -> None:
    """Bring a soft-forgotten card back."""
    with open_memory(ctx) as memory:
        card = run(lambda: memory.restore(user, card_id))
    console.print(f"restored {card.id}")
