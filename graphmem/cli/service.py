"""Service commands: serve (HTTP API), mcp (MCP over stdio), export, import."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import typer
from rich.text import Text

from graphmem.cli.app import UserOption, app, console, err_console, open_memory, run
from graphmem.cli.render import safe


@app.command()
def serve(
    ctx: typer.Context,
    host: str = typer.Option("127.0.0.1", help="Address to bind (loopback by default)."),
    port: int = typer.Option(8420, min=0, max=65535, help="Port to listen on."),
    insecure_no_auth: bool = typer.Option(
        False,
        "--insecure-no-auth",
        help="Serve a non-loopback address without API keys (anyone can read "
        "and write every user's memory).",
    ),
    max_body_bytes: int | None = typer.Option(
        None,
        min=1,
        help="Largest request body accepted (default 2 MB, or $GRAPHMEM_MAX_BODY_BYTES).",
    ),
    log_level: str = typer.Option("info", help="debug, info, warning or error."),
) -> None:
    """Serve the HTTP API (keys from $GRAPHMEM_API_KEYS or $GRAPHMEM_API_KEYS_FILE)."""
    import uvicorn

    from graphmem.memory import Memory
    from graphmem.service.auth import check_bind, hosts_for_bind
    from graphmem.service.http import ServiceSettings, create_app
    from graphmem.service.logging import configure_logging

    options = ctx.obj
    settings = run(
        lambda: ServiceSettings.from_env(
            home=options.home,
            neo4j_uri=options.neo4j_uri,
            max_body_bytes=max_body_bytes,
            allowed_hosts=hosts_for_bind(host),
        )
    )
    warning = run(lambda: check_bind(host, settings.api_keys, insecure_no_auth=insecure_no_auth))
    if warning:
        err_console.print(Text("warning: ", style="yellow") + safe(warning, 500))
    configure_logging(_level(log_level))

    def open_memory_once() -> Memory:
        return Memory.open(settings.home, neo4j_uri=settings.neo4j_uri, keep_server=True)

    listening = _listen(host, port)
    app_ = create_app(open_memory_once, settings=settings)  # closed at shutdown, see there
    server = uvicorn.Server(
        uvicorn.Config(app_, host=host, port=port, access_log=False, log_level=log_level.lower())
    )
    err_console.print(f"graphmem API on http://{host}:{port}/v1 (docs: /docs)")
    server.run(sockets=[listening])
    if not server.started:  # the app did not start (the store, say): its error is logged
        raise typer.Exit(1)


def _listen(host: str, port: int) -> socket.socket:
    """Bind before saying anything: a busy port is one clear error and exit 1 (uvicorn
    would print the banner, then exit 3, which graphmem's scripts read as "not found")."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        listening = socket.socket(family, kind, proto)
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
        listening.listen(2048)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        err_console.print(
            Text("error: ", style="red") + safe(f"cannot listen on {host}:{port}: {reason}", 500)
        )
        raise typer.Exit(1) from None
    return listening


def _level(name: str) -> int:
    import logging

    level = logging.getLevelName(name.upper())
    if not isinstance(level, int):
        raise typer.BadParameter("use debug, info, warning or error", param_hint="--log-level")
    return level


@app.command()
def mcp(ctx: typer.Context, user: str = UserOption) -> None:
    """Serve one user's memory as an MCP server over stdio (for agent clients)."""
    from graphmem.mcp_server import serve_stdio

    options = ctx.obj
    run(lambda: serve_stdio(user, home=options.home, neo4j_uri=options.neo4j_uri))


@app.command("export")
def export_command(
    ctx: typer.Context,
    file: Path = typer.Argument(
        ..., help="Where to write ('-': stdout); a folder with --format markdown."
    ),
    user: str = UserOption,
    with_embeddings: bool = typer.Option(
        False,
        "--with-embeddings",
        help="Include the vectors (bigger file; import skips re-embedding).",
    ),
    output: str = typer.Option(
        "jsonl",
        "--format",
        help="jsonl: everything, losslessly, to import elsewhere; markdown: a folder people "
        "read (profile, a file per theme and strategy; a re-export rewrites what changed).",
    ),
) -> None:
    """Export everything of a user, losslessly, as JSON Lines (or as Markdown to read)."""
    from graphmem.export import export_user

    if output not in ("jsonl", "markdown"):
        raise typer.BadParameter("use jsonl or markdown", param_hint="--format")
    if output == "markdown":
        with open_memory(ctx) as memory:
            report = run(lambda: memory.export_markdown(user, file))
        err_console.print(
            f"exported {user} to {file}: {len(report.written)} written, "
            f"{report.unchanged} unchanged, {len(report.removed)} removed"
        )
        return
    with open_memory(ctx) as memory:
        if str(file) == "-":
            run(lambda: export_user(memory, user, sys.stdout, with_embeddings=with_embeddings))
            return
        partial = file.with_name(file.name + ".partial")
        with partial.open("w", encoding="utf-8") as out:
            count = run(lambda: export_user(memory, user, out, with_embeddings=with_embeddings))
        partial.replace(file)  # a failed export never leaves a truncated file behind
    err_console.print(safe(f"exported {count} records of {user} to {file}", 500))


@app.command("import")
def import_command(
    ctx: typer.Context,
    file: Path = typer.Argument(
        ..., exists=True, dir_okay=False, help="An export file ('graphmem export')."
    ),
    user: str | None = typer.Option(
        None, "--user", "-u", help="Import as this user (default: the exported user)."
    ),
) -> None:
    """Import an export into this store (idempotent: twice changes nothing)."""
    from graphmem.export import import_file

    with open_memory(ctx) as memory:
        report = run(lambda: import_file(memory, file, user_id=user))
    counts = ", ".join(f"{n} {kind}" for kind, n in report.counts.items())
    console.print(safe(f"imported into {report.user_id}: {counts or 'nothing'}", 500))
