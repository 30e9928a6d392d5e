"""Recall commands: recall, context, people, provenance."""

from __future__ import annotations

import typer
from rich.table import Table

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
from graphmem.cli.render import (
    clean_block,
    day,
    fact_text,
    plural,
    provenance_tree,
    safe,
    short_id,
    who,
)

MinRelevanceOption = typer.Option(
    0.0,
    "--min-relevance",
    help="Only cards at least this relevant (0-1, comparable across queries; 0.2 leaves "
    "out most answers to questions about nothing memory holds).",
)


@app.command()
def recall(
    ctx: typer.Context,
    query: str = typer.Argument(..., help="What to remember, in plain words."),
    user: str = UserOption,
    k: int = typer.Option(10, "--k", "-k", min=1, max=1000, help="How many cards."),
    person: str | None = typer.Option(None, help="Only cards about this person."),
    relationship: str | None = typer.Option(
        None, help="Only people with this relationship to the user."
    ),
    category: str | None = typer.Option(None, help="Only this category."),
    since: str | None = typer.Option(None, help="Only cards from this date on."),
    until: str | None = typer.Option(None, help="Only cards up to this date."),
    include_superseded: bool = typer.Option(False, help="Also superseded cards."),
    as_of: str | None = typer.Option(
        None, "--as-of", help="Answer from what memory held true then (ISO-8601)."
    ),
    known_at: str | None = typer.Option(
        None,
        "--known-at",
        help="With --as-of: by what memory knew then (default: --as-of; 'now': today).",
    ),
    min_relevance: float = MinRelevanceOption,
    as_json: bool = JsonOption,
) -> None:
    """Recall a user's most relevant cards (vector + full-text + graph), best first."""
    with open_memory(ctx) as memory:
        hits = run(
            lambda: memory.recall(
                user,
                query,
                k=k,
                person=person,
                relationship=relationship,
                category=category,
                since=since,
                until=until,
                include_superseded=include_superseded,
                as_of=as_of,
                known_at=known_at,
                min_relevance=min_relevance,
            )
        )
    if as_json:
        print_json([h.model_dump(mode="json") for h in hits])
        return
    if not hits:
        err_console.print(safe(f"nothing in {user}'s memory for {query!r}", limit=200))
        return
    table = Table(title=safe(f"{plural(len(hits), 'memory', 'memories')} of {user} for {query!r}"))
    for column in ("relevance", "person", "fact", "when", "found by", "id"):
        table.add_column(column, overflow="fold")
    for hit in hits:
        table.add_row(
            f"{hit.relevance:.2f}",
            who(hit.card, hit.relationship),
            fact_text(hit.card),
            day(hit.card.timestamp),
            ", ".join(hit.found_by),
            short_id(hit.card.id),
        )
    console.print(table)


@app.command()
def context(
    ctx: typer.Context,
    query: str = typer.Argument(..., help="The task at hand."),
    user: str = UserOption,
    budget: int = typer.Option(400, "--budget", help="Token budget."),
    min_relevance: float = MinRelevanceOption,
) -> None:
    """Print a compact memory block for a prompt, within a token budget."""
    with open_memory(ctx) as memory:
        block = run(
            lambda: memory.context(user, query, token_budget=budget, min_relevance=min_relevance)
        )
    if not block:  # say so on stderr: stdout stays what a prompt would get
        err_console.print(
            safe(f"nothing in {user}'s memory bears on {query!r} within {budget} tokens", 300)
        )
        return
    typer.echo(clean_block(block))


@app.command()
def people(ctx: typer.Context, user: str = UserOption, as_json: bool = JsonOption) -> None:
    """List the people in a user's life, their relationship and how many cards."""
    with open_memory(ctx) as memory:
        found = run(lambda: memory.people(user))
    if as_json:
        print_json([p.model_dump(mode="json") for p in found])
        return
    if not found:
        err_console.print(safe(f"no people in {user}'s memory yet", limit=200))
        return
    table = Table(title=safe(f"{plural(len(found), 'person', 'people')} of {user}"))
    for column in ("name", "relationship", "was", "cards"):
        table.add_column(column, overflow="fold")
    for person in found:
        table.add_row(
            safe(person.name, 80),
            safe(person.relationship or "", 60),
            safe(", ".join(person.relationship_history), 120),
            str(person.card_count),
        )
    console.print(table)


@app.command()
def provenance(
    ctx: typer.Context,
    card_id: str = CardIdArgument,
    user: str = UserOption,
    as_json: bool = JsonOption,
) -> None:
    """Where a card came from: source turn, session, what it superseded, abstractions."""
    with open_memory(ctx) as memory:
        story = run(lambda: memory.provenance(user, card_id))
    if as_json:
        print_json(story.model_dump(mode="json"))
    else:
        console.print(provenance_tree(story))
