"""Agent-loop commands: conversations (`graphmem session ...`), quotas, the TCK bridge."""

from __future__ import annotations

import sys
from typing import Any

import typer
from rich.table import Table

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
from graphmem.timeutil import to_iso


@app.command()
def bridge(
    ctx: typer.Context,
    user: str = typer.Option(
        "tck",
        "--user",
        "-u",
        help="The user the bridge serves (its memory is erased by clear_all_data).",
    ),
    host: str = typer.Option("127.0.0.1", help="Loopback address to bind."),
    port: int = typer.Option(3001, min=0, max=65535, help="Port to listen on."),
) -> None:
    """Serve Neo4j Labs' agent-memory TCK bridge protocol (POST /{method}) over one
    user's memory, so the kit and its clients can drive graphmem. Loopback only: the
    protocol has no authentication and can erase the user."""
    import uvicorn

    from graphmem.memory import Memory
    from graphmem.service.auth import is_loopback

    if not is_loopback(host):
        err_console.print("[red]error:[/red] the bridge serves loopback addresses only")
        raise typer.Exit(2)
    try:
        from graphmem.integrations.bridge import create_bridge
    except ImportError as exc:
        err_console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    options = ctx.obj
    memory = run(lambda: Memory.open(options.home, neo4j_uri=options.neo4j_uri))
    try:
        err_console.print(f"graphmem agent-memory bridge on http://{host}:{port} (user {user})")
        uvicorn.run(create_bridge(memory, user_id=user), host=host, port=port, log_level="warning")
    finally:
        memory.close()


session_app = typer.Typer(
    no_args_is_help=True,
    help="Conversations: append turns, show and search them, compact past a budget.",
)
app.add_typer(
    session_app,
    name="session",
    help="A user's conversations as turns: append, show, search, compact, clear.",
)
SessionArgument = typer.Argument(..., help="Session id.")


def _turns_table(turns: list[Any], title: str) -> Table:
    table = Table(title=title)
    for column in ("turn", "when", "speaker", "text", "id"):
        table.add_column(column, overflow="fold")
    for t in turns:
        table.add_row(
            str(t.turn) + (" ·" if t.compacted else ""),
            to_iso(t.timestamp)[:19] if t.timestamp else "",
            t.speaker,
            shown(t.text),
            t.id,
        )
    return table


def shown(text: str, limit: int = 300) -> str:
    """Untrusted text for a terminal: control characters escaped, long text cut."""
    safe = "".join(c if c.isprintable() or c in "\n\t" else repr(c)[1:-1] for c in text)
    return safe if len(safe) <= limit else safe[: limit - 1] + "…"


@session_app.command("append")
def session_append(
    ctx: typer.Context,
    session: str = SessionArgument,
    text: str = typer.Argument(..., help="What was said ('-': read stdin)."),
    user: str = UserOption,
    role: str = typer.Option("user", help="user, assistant, system or tool."),
    speaker: str | None = typer.Option(None, help="Who spoke (default: the role)."),
    timestamp: str | None = typer.Option(
        None, help="When it was said (ISO-8601, or a year: 2024); default now."
    ),
    as_json: bool = JsonOption,
) -> None:
    """Append one turn to a session (created on its first turn)."""
    if text == "-":
        text = sys.stdin.read()
    with open_memory(ctx) as memory:
        turn = run(
            lambda: memory.sessions.append(user, session, role, text, timestamp, speaker=speaker)
        )
    if as_json:
        print_json(turn.model_dump(mode="json"))
    else:
        console.print(f"turn {turn.turn} of {session}: {turn.id}")


@session_app.command("show")
def session_show(
    ctx: typer.Context,
    session: str = SessionArgument,
    user: str = UserOption,
    last: int | None = typer.Option(None, min=1, help="Only the latest N turns."),
    window: bool = typer.Option(
        False, "--window", help="The prompt's view: summary and the turns after it."
    ),
    as_json: bool = JsonOption,
) -> None:
    """A session's turns in order (· marks turns folded into the summary)."""
    with open_memory(ctx) as memory:
        if window:
            view = run(lambda: memory.sessions.window(user, session))
            if as_json:
                print_json(view.model_dump(mode="json"))
                return
            if view.summary:
                console.print(shown(view.summary, 4000))
            console.print(_turns_table(view.turns, f"{session}: after the summary"))
            return
        turns = run(lambda: memory.sessions.turns(user, session, limit=last))
    if as_json:
        print_json([t.model_dump(mode="json") for t in turns])
    elif not turns:
        err_console.print(f"no turns in session {session!r} of {user!r}")
        raise typer.Exit(3)
    else:
        console.print(_turns_table(turns, session))


@session_app.command("list")
def session_list(ctx: typer.Context, user: str = UserOption, as_json: bool = JsonOption) -> None:
    """A user's sessions, most recently active first."""
    with open_memory(ctx) as memory:
        found = run(lambda: memory.sessions.list(user))
    if as_json:
        print_json([s.model_dump(mode="json") for s in found])
        return
    table = Table(title=f"sessions of {user}")
    for column in ("session", "turns", "last active", "compacted through"):
        table.add_column(column)
    for s in found:
        table.add_row(
            shown(s.session_id, 80),
            str(s.turns),
            to_iso(s.updated_at)[:19] if s.updated_at else "",
            "" if s.compacted_through is None else str(s.compacted_through),
        )
    console.print(table)


@session_app.command("search")
def session_search(
    ctx: typer.Context,
    query: str = typer.Argument(..., help="What to look for."),
    user: str = UserOption,
    session: str | None = typer.Option(None, "--session", help="One session only."),
    k: int = typer.Option(5, "-k", "--k", min=1, max=1000, help="How many turns."),
    as_json: bool = JsonOption,
) -> None:
    """Turns most similar to a query, across sessions or in one."""
    with open_memory(ctx) as memory:
        hits = run(lambda: memory.sessions.search(user, query, session_id=session, k=k))
    if as_json:
        print_json([h.model_dump(mode="json") for h in hits])
        return
    table = Table(title=f"turns for {shown(query, 80)!r}")
    for column in ("score", "session", "turn", "speaker", "text"):
        table.add_column(column, overflow="fold")
    for h in hits:
        t = h.turn
        table.add_row(
            f"{h.score:.3f}", shown(t.session_id, 80), str(t.turn), t.speaker, shown(t.text)
        )
    console.print(table)


@session_app.command("compact")
def session_compact(
    ctx: typer.Context,
    session: str = SessionArgument,
    user: str = UserOption,
    budget: int = typer.Option(1000, "--budget", min=32, help="Token budget of the window."),
    as_json: bool = JsonOption,
) -> None:
    """Fold the oldest turns into the summary and cards, so the window fits the budget."""
    with open_memory(ctx) as memory:
        done = run(lambda: memory.sessions.compact(user, session, budget))
    if as_json:
        print_json(done.model_dump(mode="json"))
    elif done.changed:
        console.print(
            f"folded turns {done.folded[0]}-{done.folded[-1]} into the summary, "
            f"{len(done.cards)} {'card' if len(done.cards) == 1 else 'cards'} extracted; "
            f"window {done.tokens} tokens ({len(done.buffer)} turns kept verbatim)"
        )
    else:
        console.print(f"nothing to fold: the window is {done.tokens} tokens, within {budget}")


@session_app.command("clear")
def session_clear(
    ctx: typer.Context, session: str = SessionArgument, user: str = UserOption
) -> None:
    """Remove a session's turns and summary (cards extracted from it stay)."""
    with open_memory(ctx) as memory:
        cleared = run(lambda: memory.sessions.clear(user, session))
    console.print(f"cleared {cleared} {'turn' if cleared == 1 else 'turns'} of {session}")


@session_app.command("delete-turn")
def session_delete_turn(
    ctx: typer.Context,
    turn_id: str = typer.Argument(..., help="The turn's id (session show lists them)."),
    user: str = UserOption,
) -> None:
    """Remove one turn from its conversation."""
    with open_memory(ctx) as memory:
        deleted = run(lambda: memory.sessions.delete_turn(user, turn_id))
    if not deleted:
        err_console.print(f"[red]error:[/red] no turn {turn_id!r} for user {user!r}")
        raise typer.Exit(3)
    console.print(f"deleted turn {turn_id}")


@app.command()
def quota(
    ctx: typer.Context,
    user: str = UserOption,
    cards: int | None = typer.Option(None, min=0, help="Set the card limit (0: unlimited)."),
    bytes_: int | None = typer.Option(
        None, "--bytes", min=0, help="Set the stored-bytes limit (0: unlimited)."
    ),
    writes_per_minute: int | None = typer.Option(
        None, min=0, help="Set the write-rate limit (0: unlimited)."
    ),
    reset: bool = typer.Option(False, "--reset", help="Back to the default limits."),
    as_json: bool = JsonOption,
) -> None:
    """A user's quota: limits and usage; options set the user's own limits."""
    changes: dict[str, int | None] = {}
    if reset:
        changes = {"cards": None, "bytes": None, "writes_per_minute": None}
    for name, value in (
        ("cards", cards),
        ("bytes", bytes_),
        ("writes_per_minute", writes_per_minute),
    ):
        if value is not None:
            changes[name] = value
    with open_memory(ctx) as memory:
        if changes:
            run(lambda: memory.quotas.set_limits(user, **changes))
        usage = run(lambda: memory.quotas.usage(user))
    if as_json:
        print_json(usage.model_dump(mode="json"))
        return
    table = Table(title=f"quota of {user}")
    for column in ("limit", "used", "allowed"):
        table.add_column(column)
    limits = usage.limits
    table.add_row("cards", str(usage.cards), _limit(limits.cards))
    table.add_row("bytes", str(usage.bytes), _limit(limits.bytes))
    table.add_row(
        "writes per minute",
        "" if usage.writes_available is None else f"{usage.writes_available} available now",
        _limit(limits.writes_per_minute),
    )
    console.print(table)


def _limit(value: int | None) -> str:
    return "unlimited" if not value else str(value)
