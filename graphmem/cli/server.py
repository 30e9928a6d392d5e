"""Embedded server commands: status and stop."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.text import Text

from graphmem.cli.app import JsonOption, Options, app, console, print_json
from graphmem.cli.render import clean_block, safe


def _home(ctx: typer.Context) -> Path:
    options: Options = ctx.obj
    return options.home or Path(".graphmem")


@app.command()
def status(ctx: typer.Context, as_json: bool = JsonOption) -> None:
    """Is the embedded server of this data directory running? (exit 1 if not)"""
    from dataclasses import asdict

    from graphmem import daemon
    from graphmem.store.embedded import EmbeddedServer

    server = EmbeddedServer(_home(ctx))
    info = server.info()
    daemon_pid = daemon.pid_of(_home(ctx))
    if as_json:
        print_json(
            {
                "running": info is not None,
                "home": str(server.home),
                **(asdict(info) if info else {}),
                "daemon_pid": daemon_pid,
            }
        )
    elif info is None:
        console.print(safe(f"stopped ({server.home})", 500))
    else:
        idle = (
            "unknown"
            if info.idle_timeout_s is None
            else "never"
            if info.idle_timeout_s == 0
            else f"{info.idle_timeout_s:g}s"
        )
        console.print(
            Text(
                clean_block(
                    f"running ({server.home})\n"
                    f"  pid           {info.pid}\n"
                    f"  uptime        {_duration(info.uptime_s)}\n"
                    f"  idle timeout  {idle}"
                    + (f" (watchdog pid {info.watchdog_pid})" if info.watchdog_pid else "")
                    + "\n"
                    f"  data on disk  {_size(info.data_bytes)}\n"
                    f"  memory (RSS)  {_size(info.rss_bytes)}\n"
                    f"  clients       {len(info.clients)}"
                    + (f" ({', '.join(info.clients)})" if info.clients else "")
                    + "\n"
                    f"  socket        {server.socket}\n"
                    f"  daemon        "
                    + (f"pid {daemon_pid} (warm CLI calls)" if daemon_pid else "not running")
                )
            )
        )
    if info is None:
        raise typer.Exit(1)


@app.command()
def stop(ctx: typer.Context) -> None:
    """Stop the graphmem daemon and the embedded server of this data directory
    (cleanly, nothing is lost)."""
    from graphmem import daemon
    from graphmem.store.embedded import EmbeddedServer

    daemon_stopped = daemon.stop(_home(ctx))
    server = EmbeddedServer(_home(ctx))
    with server.locked():
        stopped = server.stop()
    console.print("stopped" if stopped or daemon_stopped else "was not running")


def _duration(seconds: int) -> str:
    """``3725`` -> ``1h 02m 05s``."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h {minutes:02d}m {secs:02d}s" if hours else f"{minutes}m {secs:02d}s"


def _size(n: int) -> str:
    """``1536`` -> ``1.5 KiB``."""
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"  # pragma: no cover
