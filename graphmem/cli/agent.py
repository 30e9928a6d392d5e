"""Agent-loop commands: conversations (`graphmem session ...`), quotas, the TCK bridge."""

from __future__ import annotations

import typer

from graphmem.cli.app import UserOption, app, err_console, run


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

    try:
        from graphmem.integrations.bridge import create_bridge, is_loopback
    except ImportError as exc:
        err_console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    if not is_loopback(host):
        err_console.print("[red]error:[/red] the bridge serves loopback addresses only")
        raise typer.Exit(2)
    options = ctx.obj
    memory = run(lambda: Memory.open(options.home, neo4j_uri=options.neo4j_uri))
    try:
        err_console.print(f"graphmem agent-memory bridge on http://{host}:{port} (user {user})")
        uvicorn.run(create_bridge(memory, user_id=user), host=host, port=port, log_level="warning")
    finally:
        memory.close()


__all__ = ["UserOption", "bridge"]
