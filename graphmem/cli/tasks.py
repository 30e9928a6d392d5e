"""Task commands (`graphmem tasks ...`): a user's multi-step work as a dependency graph."""

from __future__ import annotations

import sys

import typer
from rich.table import Table
from rich.text import Text

from graphmem.cli.app import (
    JsonOption,
    UserOption,
    app,
    console,
    err_console,
    open_memory,
    print_json,
    run,
)
from graphmem.cli.render import FULL, moment, plural, safe, short_id
from graphmem.tasks import BlockedTask, Task

tasks_app = typer.Typer(
    no_args_is_help=True,
    help="Track multi-step work as a task graph: "
    "add tasks, say what blocks what, see what is ready.",
)
app.add_typer(
    tasks_app,
    name="tasks",
    help="Task dependency graph per user: add, update, done, ready, blocked.",
)

TaskIdArgument = typer.Argument(..., help="Task id.")


def task_table(tasks: list[Task], title: str) -> Table:
    table = Table(title=safe(title))
    for column in ("id", "status", "subject", "owner", "blocked by", "blocks"):
        table.add_column(column, overflow="fold")
    for task in tasks:
        table.add_row(
            task.id,
            task.status.value,
            safe(task.subject),
            safe(task.owner or "", 60),
            ", ".join(task.blocked_by),
            ", ".join(task.blocks),
        )
    return table


def task_sheet(task: Task) -> Table:
    """One task as a two-column sheet."""
    sheet = Table(title=f"task {task.id}", show_header=False)
    sheet.add_column("field", style="bold")
    sheet.add_column("value", overflow="fold")
    rows: list[tuple[str, Text | str]] = [
        ("subject", safe(task.subject, FULL)),
        ("status", task.status.value),
        ("owner", safe(task.owner or "-", 120)),
        ("description", safe(task.description or "-", FULL)),
        ("blocked by", ", ".join(task.blocked_by) or "-"),
        ("blocks", ", ".join(task.blocks) or "-"),
        ("cites", ", ".join(short_id(c) for c in task.cites) or "-"),
        ("created", moment(task.created_at)),
        ("updated", f"{moment(task.updated_at)} (version {task.version})"),
    ]
    if task.completed_at:
        rows.append(("completed", moment(task.completed_at)))
    for name, value in rows:
        sheet.add_row(name, value)
    return sheet


def _print_task(task: Task, verb: str, as_json: bool) -> None:
    if as_json:
        print_json(task.model_dump(mode="json"))
    else:
        line = Text(f"{verb} ")
        line.append(task.id, style="bold")
        line.append(f" ({task.status.value}, version {task.version}): ")
        line.append(safe(task.subject))
        console.print(line)


@tasks_app.command("add")
def add(
    ctx: typer.Context,
    subject: str = typer.Argument(..., help="What is to be done."),
    user: str = UserOption,
    description: str = typer.Option("", help="Details: acceptance criteria, notes."),
    blocked_by: list[str] = typer.Option(
        [], "--blocked-by", help="A task that must finish first (repeatable)."
    ),
    owner: str | None = typer.Option(None, help="Who works on it (agent or person)."),
    cite: list[str] = typer.Option(
        [], "--cite", help="A card id this task relies on (repeatable)."
    ),
    as_json: bool = JsonOption,
) -> None:
    """Add a pending task, optionally blocked by other tasks."""
    with open_memory(ctx) as memory:
        task = run(
            lambda: memory.tasks.create(
                user, subject, description, blocked_by=blocked_by, owner=owner, cites=cite
            )
        )
    if as_json:
        print_json(task.model_dump(mode="json"))
        return
    # The id alone on stdout, as README promises (`id=$(graphmem tasks add ...)`).
    sys.stdout.write(task.id + "\n")
    err_console.print(safe(f"added task {task.id}: {task.subject}"))


@tasks_app.command("update")
def update(
    ctx: typer.Context,
    task_id: str = TaskIdArgument,
    user: str = UserOption,
    status: str | None = typer.Option(None, help="pending, in_progress, completed or cancelled."),
    blocked_by: list[str] = typer.Option(
        [], "--blocked-by", help="Add a blocker: a task that must finish first."
    ),
    unblock: list[str] = typer.Option([], "--unblock", help="Remove a blocker."),
    blocks: list[str] = typer.Option(
        [], "--blocks", help="Add a task that must wait for this one."
    ),
    owner: str | None = typer.Option(None, help="New owner ('' clears it)."),
    subject: str | None = typer.Option(None, help="New subject."),
    description: str | None = typer.Option(None, help="New description."),
    force: bool = typer.Option(
        False, "--force", help="Start or complete it even though a blocker is still open."
    ),
    as_json: bool = JsonOption,
) -> None:
    """Change a task's status, owner, text or dependencies."""
    fields: dict[str, str | None] = {}
    if owner is not None:
        fields["owner"] = owner or None
    if subject is not None:
        fields["subject"] = subject
    if description is not None:
        fields["description"] = description
    with open_memory(ctx) as memory:
        task = run(
            lambda: memory.tasks.update(
                user,
                task_id,
                status=status,
                add_blocked_by=blocked_by,
                remove_blocked_by=unblock,
                add_blocks=blocks,
                force=force,
                **fields,
            )
        )
    _print_task(task, "updated", as_json)


@tasks_app.command("done")
def done(
    ctx: typer.Context,
    task_id: str = TaskIdArgument,
    user: str = UserOption,
    force: bool = typer.Option(
        False, "--force", help="Complete even though a blocker is still open."
    ),
    as_json: bool = JsonOption,
) -> None:
    """Mark a task completed; prints the tasks that became ready."""
    with open_memory(ctx) as memory:
        before = {t.id for t in run(lambda: memory.tasks.ready(user))}
        task = run(lambda: memory.tasks.complete(user, task_id, force=force))
        now_ready = [t for t in run(lambda: memory.tasks.ready(user)) if t.id not in before]
    if as_json:
        print_json({"task": task.model_dump(mode="json"), "now_ready": [t.id for t in now_ready]})
        return
    _print_task(task, "completed", as_json=False)
    for ready_task in now_ready:
        console.print(
            Text("  now ready: ")
            + Text(ready_task.id, style="bold")
            + Text(" ")
            + safe(ready_task.subject)
        )


@tasks_app.command("cancel")
def cancel(
    ctx: typer.Context,
    task_id: str = TaskIdArgument,
    user: str = UserOption,
    as_json: bool = JsonOption,
) -> None:
    """Cancel a task: kept for the record, it no longer blocks anything."""
    with open_memory(ctx) as memory:
        task = run(lambda: memory.tasks.cancel(user, task_id))
    _print_task(task, "cancelled", as_json)


@tasks_app.command("ready")
def ready(ctx: typer.Context, user: str = UserOption, as_json: bool = JsonOption) -> None:
    """Pending tasks with nothing open blocking them: what can be started now."""
    with open_memory(ctx) as memory:
        tasks = run(lambda: memory.tasks.ready(user))
    _print_tasks(tasks, f"{plural(len(tasks), 'ready task')} of {user}", as_json)


@tasks_app.command("blocked")
def blocked(ctx: typer.Context, user: str = UserOption, as_json: bool = JsonOption) -> None:
    """Open tasks still waiting on open blockers, with those blockers."""
    with open_memory(ctx) as memory:
        found: list[BlockedTask] = run(lambda: memory.tasks.blocked(user))
    if as_json:
        print_json([b.model_dump(mode="json") for b in found])
        return
    table = Table(title=safe(f"{plural(len(found), 'blocked task')} of {user}"))
    for column in ("id", "status", "subject", "waiting on"):
        table.add_column(column, overflow="fold")
    for item in found:
        table.add_row(
            item.task.id,
            item.task.status.value,
            safe(item.task.subject),
            ", ".join(f"{b.id} ({b.status.value})" for b in item.blockers),
        )
    console.print(table)


@tasks_app.command("show")
def show(
    ctx: typer.Context,
    task_id: str = TaskIdArgument,
    user: str = UserOption,
    as_json: bool = JsonOption,
) -> None:
    """Show one task with its dependencies and cited cards."""
    with open_memory(ctx) as memory:
        task = run(lambda: memory.tasks.get(user, task_id))
    if as_json:
        print_json(task.model_dump(mode="json"))
    else:
        console.print(task_sheet(task))


@tasks_app.command("list")
def list_tasks(
    ctx: typer.Context,
    user: str = UserOption,
    status: str | None = typer.Option(
        None, help="Only this status: pending, in_progress, completed, cancelled."
    ),
    as_json: bool = JsonOption,
) -> None:
    """List a user's tasks, oldest first."""
    with open_memory(ctx) as memory:
        tasks = run(lambda: memory.tasks.list(user, status=status))
    _print_tasks(tasks, f"{plural(len(tasks), 'task')} of {user}", as_json)


@tasks_app.command("delete")
def delete(ctx: typer.Context, task_id: str = TaskIdArgument, user: str = UserOption) -> None:
    """Delete a task and its dependency edges (cancel keeps the record instead)."""
    with open_memory(ctx) as memory:
        run(lambda: memory.tasks.delete(user, task_id))
    console.print(safe(f"deleted {task_id}"))


def _print_tasks(tasks: list[Task], title: str, as_json: bool) -> None:
    if as_json:
        print_json([t.model_dump(mode="json") for t in tasks])
    else:
        console.print(task_table(tasks, title))
