"""The idle watchdog: stops an embedded server nobody has used for a while.

Started (detached) with the server by ``EmbeddedServer.ensure_running``::

    python -m graphmem.store.watchdog --home H --idle SECONDS --server-pid PID

Every ``--poll`` seconds it asks the server two things over its own connection (named
``watchdog``, which counts neither as a client nor as activity):

- which graphmem clients are connected (``CLIENT LIST`` names starting with
  ``graphmem``): an open ``Memory`` keeps the server alive however quiet it is;
- how many graph commands it has run (``INFO commandstats``, ``graph.*``): a short CLI
  call that came and went between two polls still counts as use.

After ``--idle`` seconds with neither, it takes the directory's start/stop lock (so no
starter is half-way through connecting), checks again, and shuts the server down
cleanly (``SHUTDOWN``: the AOF is fsynced). It exits as soon as its server is gone,
however that happened.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import time
from dataclasses import dataclass

import redis

from graphmem.processes import alive
from graphmem.store.embedded import WATCHDOG_CLIENT, EmbeddedServer


@dataclass(frozen=True)
class Activity:
    """One look at the server: who is connected and how much it has worked."""

    clients: int
    graph_calls: int


def observe(client: redis.Redis) -> Activity:
    """Count graphmem clients and graph commands run so far."""
    names = [c.get("name", "") for c in client.client_list()]
    stats = client.info("commandstats")
    calls = sum(
        int(v.get("calls", 0))
        for k, v in stats.items()
        if k.lower().startswith("cmdstat_graph.") and isinstance(v, dict)
    )
    return Activity(clients=sum(1 for n in names if n.startswith("graphmem")), graph_calls=calls)


def idle_since(previous: Activity | None, now: Activity) -> bool:
    """True when nothing happened between two looks.

    Examples:
        >>> idle_since(Activity(0, 7), Activity(0, 7))
        True
        >>> idle_since(Activity(0, 7), Activity(0, 9))  # a CLI call came and went
        False
        >>> idle_since(Activity(0, 7), Activity(1, 7))  # a Memory is open
        False
    """
    return previous is not None and now.clients == 0 and now.graph_calls == previous.graph_calls


def watch(home: str, idle: float, server_pid: int, *, poll: float = 2.0) -> bool:
    """Watch server ``server_pid`` of ``home``; True if it was stopped for idleness."""
    server = EmbeddedServer(home)
    client = server.connect(WATCHDOG_CLIENT, timeout=30)
    previous: Activity | None = None
    quiet_since = time.monotonic()
    try:
        while alive(server_pid):
            try:
                now = observe(client)
            except (
                redis.exceptions.ConnectionError,
                redis.exceptions.TimeoutError,
                redis.exceptions.BusyLoadingError,
                OSError,
            ):
                quiet_since = time.monotonic()  # loading or going away: not idle
                previous = None
                time.sleep(poll)
                continue
            if not idle_since(previous, now):
                quiet_since = time.monotonic()
            previous = now
            if time.monotonic() - quiet_since >= idle and _stop_if_still_idle(
                server, client, server_pid, now
            ):
                return True
            time.sleep(poll)
        return False
    finally:
        client.close()


def _stop_if_still_idle(
    server: EmbeddedServer, client: redis.Redis, server_pid: int, seen: Activity
) -> bool:
    with server.locked():
        if server.pid() != server_pid:
            return False
        try:
            if not idle_since(seen, observe(client)):
                return False
        except redis.exceptions.RedisError:
            return False
        client.close()
        server.stop()
        return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m graphmem.store.watchdog", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--home", required=True, help="the graphmem data directory")
    parser.add_argument(
        "--idle",
        type=float,
        required=True,
        help="seconds without a graphmem client before stopping the server",
    )
    parser.add_argument("--server-pid", type=int, required=True, help="the server to watch")
    parser.add_argument(
        "--poll", type=float, default=None, help="seconds between looks (default: min(2, idle / 4))"
    )
    args = parser.parse_args(argv)
    if args.idle <= 0:
        return 0
    poll = args.poll if args.poll is not None else max(0.1, min(2.0, args.idle / 4))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    server = EmbeddedServer(args.home)
    try:
        stopped = watch(args.home, args.idle, args.server_pid, poll=poll)
        if stopped:
            print(
                f"{time.strftime('%Y-%m-%dT%H:%M:%S')} stopped server {args.server_pid} "
                f"after {args.idle:g}s idle",
                flush=True,
            )
    finally:
        with contextlib.suppress(OSError, ValueError):
            if int(server.watchdog_pidfile.read_text().strip()) == os.getpid():
                server.watchdog_pidfile.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
