"""The profile command: a readable profile of a user, rendered from the graph."""

from __future__ import annotations

import sys
from enum import StrEnum

import typer

from graphmem.cli.app import UserOption, app, err_console, open_memory, print_json, run
from graphmem.cli.render import clean_block, safe


class ProfileFormat(StrEnum):
    MARKDOWN = "markdown"
    JSON = "json"


@app.command()
def profile(
    ctx: typer.Context,
    user: str = UserOption,
    output: ProfileFormat = typer.Option(
        ProfileFormat.MARKDOWN, "--format", help="markdown (a document) or json (its sections)."
    ),
    as_of: str | None = typer.Option(
        None, "--as-of", help="As memory held it then (ISO-8601); default now."
    ),
    known_at: str | None = typer.Option(
        None,
        "--known-at",
        help="With --as-of: by what memory knew then (default: --as-of; 'now': today).",
    ),
) -> None:
    """Who the user is, their preferences, people, themes, events and open tasks, as
    Markdown rendered from memory: every line links to its card."""
    with open_memory(ctx) as memory:
        made = run(lambda: memory.profile(user, as_of=as_of, known_at=known_at))
    if output is ProfileFormat.JSON:
        print_json(made.model_dump(mode="json"))
        return
    if not made.cards and not made.tasks:
        err_console.print(safe(f"nothing remembered about {user} yet"))
    sys.stdout.write(clean_block(made.markdown()))
