"""Consolidation commands: consolidate (conflicts, abstraction, forgetting) and feedback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer
from rich.progress import Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn
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
from graphmem.cli.render import safe, short_id
from graphmem.consolidation import STEPS, ConsolidationReport, StepProgress
from graphmem.errors import ValidationError

_LABELS = {
    "conflicts": "conflicts: detect and resolve",
    "forgetting": "forgetting: let faded cards go",
    "abstraction": "abstraction: cluster and summarise",
}


@contextmanager
def step_progress(enabled: bool) -> Iterator[StepProgress | None]:
    """A rich spinner per step while it runs, ticked off with its time when done."""
    if not enabled:
        yield None
        return
    with Progress(
        SpinnerColumn(finished_text="[green]✓[/green]"),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    ) as bar:
        tasks: dict[str, TaskID] = {}

        def report(step: str, phase: str) -> None:
            if phase == "start":
                tasks[step] = bar.add_task(_LABELS.get(step, step), total=1)
            else:
                bar.update(tasks[step], completed=1)

        yield report


def report_tables(report: ConsolidationReport) -> list[Table]:
    """The printed report: one summary table, then what each step decided."""
    title = f"consolidation of {report.user_id} ({report.mode}" + (
        ", dry run: nothing written)" if report.dry_run else ")"
    )
    summary = Table(title=safe(title))
    for column in ("step", "result", "seconds"):
        summary.add_column(column)
    s = report.summary()
    rows = {
        "project": f"{s['cards']} active cards, {s['new_cards']} new since the last run",
        "conflicts": (
            f"{s['conflicts_found']} found, {s['conflicts_resolved']} resolved "
            f"(superseded), {s['flagged']} flagged for revision"
        ),
        "forgetting": f"{s['forgotten']} forgotten",
        "abstraction": (
            f"{s['clusters']} clusters: {s['abstractions_created']} created, "
            f"{s['abstractions_updated']} updated, "
            f"{s['abstractions_retired']} retired"
        ),
    }
    for step in (
        "project",
        *[x for x in ("conflicts", "forgetting", "abstraction") if x in report.steps],
    ):
        summary.add_row(step, rows[step], f"{report.timings.get(step, 0.0):.2f}")
    summary.add_row("total", "", f"{report.timings.get('total', 0.0):.2f}")
    tables = [summary]
    if report.conflicts:
        table = Table(title="conflicts")
        for column in ("decision", "from", "to", "by", "reason"):
            table.add_column(column, overflow="fold")
        for c in report.conflicts:
            table.add_row(
                c.kind, safe(c.facts[0]), safe(c.facts[1]), safe(c.decided_by), safe(c.reason)
            )
        tables.append(table)
    if report.forgotten:
        table = Table(title="forgotten")
        for column in ("card", "fact", "P(forget)", "reason"):
            table.add_column(column, overflow="fold")
        for f in report.forgotten:
            table.add_row(short_id(f.card_id), safe(f.fact), f"{f.score:.2f}", safe(f.reason))
        tables.append(table)
    changed = [a for a in report.abstractions if a.action != "unchanged"]
    if changed:
        table = Table(title="abstractions")
        for column in ("abstraction", "action", "size", "summary"):
            table.add_column(column, overflow="fold")
        for a in changed:
            table.add_row(short_id(a.id), a.action, str(a.size), safe(a.summary or ""))
        tables.append(table)
    return tables


def _steps(text: str) -> list[str]:
    steps = [s.strip() for s in text.split(",") if s.strip()]
    unknown = [s for s in steps if s not in STEPS]
    if unknown or not steps:
        raise ValidationError(
            f"unknown steps {unknown}; choose from {','.join(STEPS)}", field="steps"
        )
    return steps


@app.command()
def consolidate(
    ctx: typer.Context,
    user: str = UserOption,
    steps: str = typer.Option(
        ",".join(STEPS), "--steps", help="Comma-separated: conflicts,abstraction,forgetting."
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would happen; write nothing."),
    capacity: int | None = typer.Option(
        None,
        "--capacity",
        min=0,
        help="Keep at most this many active cards (forget the most faded).",
    ),
    threshold: float = typer.Option(
        0.8, "--threshold", min=0.01, max=1.0, help="Forget cards with P(forget) >= this."
    ),
    recluster: bool = typer.Option(
        False, "--recluster", help="Cluster from scratch, not incrementally."
    ),
    as_of: str | None = typer.Option(
        None, "--as-of", help="Reason as of this time (ISO-8601); default now."
    ),
    as_json: bool = JsonOption,
) -> None:
    """Consolidate a user's memory: resolve conflicts, forget faded cards, build
    abstractions. Prints what was decided and why, and the time per step."""
    chosen = run(lambda: _steps(steps))
    with open_memory(ctx) as memory, step_progress(not as_json) as progress:
        report = run(
            lambda: memory.consolidate(
                user,
                chosen,
                dry_run=dry_run,
                progress=progress,
                capacity=capacity,
                threshold=threshold,
                recluster=True if recluster else None,
                now=as_of,
            )
        )
    if as_json:
        print_json({"summary": report.summary(), **report.model_dump(mode="json")})
        return
    for table in report_tables(report):
        console.print(table)


def _signal(text: str) -> str | int:
    return int(text) if text.strip().isdigit() else text.strip().lower()


@app.command()
def feedback(
    ctx: typer.Context,
    card_id: str = CardIdArgument,
    user: str = UserOption,
    signal: str = typer.Option(
        ..., "--signal", "-s", help="up, down, or a rating 1-5 (3 is neutral)."
    ),
    as_json: bool = JsonOption,
) -> None:
    """Rate a card: moves its reward and confidence; down flags it for revision."""
    with open_memory(ctx) as memory:
        card = run(lambda: memory.feedback(user, card_id, _signal(signal)))
    if as_json:
        print_json(card.model_dump(mode="json"))
        return
    flag = " [yellow]needs revision[/yellow]" if card.needs_revision else ""
    console.print(f"{card.id}: reward {card.reward:g}, confidence {card.confidence:g}{flag}")
