"""`graphmem ingest`: conversations, documents and card files into memory."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import typer
from rich.table import Table
from rich.text import Text

from graphmem.cli.app import JsonOption, UserOption, app, console, open_memory, print_json, run
from graphmem.cli.render import safe
from graphmem.errors import ValidationError


def load_llm(spec: str) -> Any:
    """A langchain-core chat model from ``module:callable`` (called without arguments).

    The callable reads its own configuration (API keys, model name) from the
    environment, e.g. ``langchain_openai:ChatOpenAI``.
    """
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValidationError(
            "--llm takes module:callable, e.g. langchain_openai:ChatOpenAI", field="llm"
        )
    try:
        factory = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise ValidationError(f"--llm {spec}: {exc}", field="llm") from None
    return factory()


@app.command()
def ingest(
    ctx: typer.Context,
    path: Path = typer.Argument(
        ...,
        exists=True,
        dir_okay=False,
        readable=True,
        help="A conversation JSONL, a cards JSON/JSONL, or a text/Markdown document.",
    ),
    user: str = UserOption,
    format: str | None = typer.Option(
        None, "--format", help="cards, conversation or text (default: detected)."
    ),
    llm: str | None = typer.Option(
        None, "--llm", help="Extract with a langchain chat model, given as module:callable."
    ),
    batch_size: int = typer.Option(256, min=1, help="Records per batch."),
    as_json: bool = JsonOption,
) -> None:
    """Ingest a file for a user: resumable, idempotent, with a progress bar."""
    from ingestion.pipeline import ingest_file

    chat_model = run(lambda: load_llm(llm)) if llm else None
    with open_memory(ctx) as memory:
        report = run(
            lambda: ingest_file(
                memory,
                path,
                user,
                format=format,
                llm=chat_model,
                batch_size=batch_size,
                progress=not as_json,
            )
        )
    summary: dict[str, Any] = {
        "file": report.path,
        "format": report.format,
        "records": report.records,
        "resumed_from": report.resumed_from,
        "cards": report.cards,
        "created": report.created,
        "unchanged": report.unchanged,
        "updated": report.updated,
        "seconds": report.seconds,
        "people": [p.name for p in report.people],
        "to_review": [
            {"mention": r.mention, "maybe": r.candidates, "where": r.where} for r in report.reviews
        ],
        "llm_failures": report.llm_failures,
    }
    if as_json:
        print_json(summary)
        return
    table = Table(title=safe(f"ingested {path.name} for {user}"), show_header=False)
    for key in (
        "format",
        "records",
        "resumed_from",
        "cards",
        "created",
        "unchanged",
        "updated",
        "seconds",
        "llm_failures",
    ):
        table.add_row(key, str(summary[key]))
    table.add_row("people", safe(", ".join(summary["people"]), 400))
    console.print(table)
    for review in report.reviews:
        text = f"{review.mention!r} may be {' or '.join(review.candidates)} ({review.where})"
        console.print(Text("review: ", style="yellow") + safe(text, 300))
