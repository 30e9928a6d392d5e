"""Card commands: remember, show, list, forget, restore."""

from __future__ import annotations

from enum import StrEnum

import typer

from graphmem.cli.app import (
    CardIdArgument,
    JsonOption,
    UserOption,
    app,
    console,
    err_console,
    open_memory,
    print_json,
    run,
)
from graphmem.cli.render import card_sheet, card_table, plural, safe


class ListStatus(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    FORGOTTEN = "forgotten"
    ALL = "all"


@app.command()
def remember(
    ctx: typer.Context,
    fact: str = typer.Argument(..., help="One atomic statement."),
    user: str = UserOption,
    person: str = typer.Option("me", help="Who the fact is about."),
    relationship: str | None = typer.Option(None, help="Their relationship to you."),
    backstory: str = typer.Option("", help="Where/how this came up."),
    timestamp: str | None = typer.Option(
        None, help="When (ISO-8601, or a year: 2024); default now."
    ),
    allow_future: bool = typer.Option(
        False, "--allow-future", help="Accept a time more than a day ahead (a planned event)."
    ),
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
        card = run(lambda: memory.remember(data, allow_future=allow_future))
    if as_json:
        print_json(card.model_dump(mode="json"))
    else:
        again = f", said {card.seen_count} times" if card.seen_count > 1 else ""
        console.print(f"remembered [bold]{card.id}[/bold] (version {card.version}{again})")


@app.command()
def show(
    ctx: typer.Context,
    card_id: str = CardIdArgument,
    user: str = UserOption,
    as_json: bool = JsonOption,
) -> None:
    """Show one card with everything stored about it."""
    with open_memory(ctx) as memory:
        story = run(lambda: memory.provenance(user, card_id))
    card = story.card
    if as_json:
        print_json(card.model_dump(mode="json"))
    else:
        console.print(card_sheet(story))


@app.command("list")
def list_cards(
    ctx: typer.Context,
    user: str = UserOption,
    status: ListStatus = typer.Option(ListStatus.ACTIVE, help="Which cards to list."),
    limit: int = typer.Option(50, min=1, help="At most this many, newest first."),
    as_json: bool = JsonOption,
) -> None:
    """List a user's cards, newest first (exit 3 when the store has none of that user)."""
    chosen = None if status is ListStatus.ALL else status.value
    with open_memory(ctx) as memory:
        cards = run(lambda: memory.cards(user, status=chosen, limit=limit))
        counts = run(lambda: memory.count(user)) if not cards else {}
    if not cards and not counts:
        err_console.print(
            safe(f"error: no memory of user {user!r} in this store (check --user and --home)", 300)
        )
        raise typer.Exit(3)
    if as_json:
        print_json([c.model_dump(mode="json") for c in cards])
        return
    what = "" if status is ListStatus.ACTIVE else f"{status.value} "
    title = f"{plural(len(cards), what + 'card')} of {user}"
    if not cards:
        held = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
        err_console.print(safe(f"{title} ({held}; --status all lists them)", 300))
        return
    console.print(card_table(cards, title))


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
