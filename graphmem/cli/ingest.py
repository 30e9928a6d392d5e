"""`graphmem ingest`: conversations, documents and card files into memory."""

from __future__ import annotations

import importlib
from dataclasses import asdict
from pathlib import Path
from typing import Any

import typer
from rich.table import Table
from rich.text import Text

from graphmem.cli.app import JsonOption, UserOption, app, console, open_memory, print_json, run
from graphmem.cli.render import safe
from graphmem.errors import ValidationError


def _tally(tally: Any) -> str:
    """ "16 turns: 12 read, 1 kept as said, 3 skipped (small talk 3); 18 cards" """
    skipped = sum(tally.skipped.values())
    why = ", ".join(f"{k} {v}" for k, v in sorted(tally.skipped.items()))
    failed = f" ({tally.failed} the rules failed on: see the log)" if tally.failed else ""
    return (
        f"{tally.turns} turns: {tally.read} read, {tally.kept} kept as said{failed}, "
        f"{skipped} skipped{f' ({why})' if why else ''}; {tally.cards} cards"
    )


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
    """Ingest a file for a user: resumable, idempotent, with a progress bar.

    \b
    A conversation is JSONL, one object per line (or a JSON array):
      {"session_id": "may-4", "date": "2024-05-04T19:30:00+08:00"}
      {"session_id": "may-4", "speaker": "user", "text": "my sister is vegan"}
      {"session_id": "may-4", "speaker": "assistant", "text": "Try Kin Thai!"}

    \b
    - session_id + date, no text: starts a session; its turns get its date
      (as the writer's clock showed it: an offset is dropped, not applied)
    - a turn: session_id, speaker, text; optional: turn (else numbered
      in file order within its session), timestamp (ISO 8601 or epoch ms)
    - speaker "user" (or the user id) is the user; "assistant", "ai",
      "bot", "agent", "companion" are the assistant (kept as said,
      attributed to it, never a fact about the user); others are people

    Every turn of every speaker is kept: claims the rules read become facts,
    the rest is kept as said (small talk is left out), and so is a turn
    over 20,000 characters (a pasted text, in pieces). The report counts
    turns per speaker and per language.
    """
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
        "speakers": {k: asdict(v) for k, v in report.speakers.items()},
        "languages": {k: asdict(v) for k, v in report.languages.items()},
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
    for label, tallies in (("speaker", report.speakers), ("language", report.languages)):
        for name, tally in tallies.items():
            table.add_row(f"{label} {safe(name, 40)}", _tally(tally))
    console.print(table)
    for review in report.reviews:
        text = f"{review.mention!r} may be {' or '.join(review.candidates)} ({review.where})"
        console.print(Text("review: ", style="yellow") + safe(text, 300))
