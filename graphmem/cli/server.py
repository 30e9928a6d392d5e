"""Embedded server commands: status and stop."""

from __future__ import annotations

from pathlib import Path

import typer

from graphmem.cli.app import Options, app, console


def _home(ctx: typer.Context) -> Path:
    options: Options = ctx.obj
    return options.home or Path(".graphmem")


@app.command()
def status(ctx: typer.Context) -> None:
    """Is the embedded server of this data directory running?"""
    from graphmem.store.embedded import EmbeddedServer

    server = EmbeddedServer(_home(ctx))
    pid = server.pid()
    if pid is None:
        console.print(f"stopped ({server.home})")
        raise typer.Exit(1)
    console.print(f"running, pid {pid}, socket {server.socket}")


@app.command()
def stop(ctx: typer.Context) -> None:
    """Stop the embedded server of this data directory (cleanly, nothing is lost)."""
    from graphmem.store.embedded import EmbeddedServer

    server = EmbeddedServer(_home(ctx))
    with server.locked():
        stopped = server.stop()
    console.print("stopped" if stopped else "was not running")
