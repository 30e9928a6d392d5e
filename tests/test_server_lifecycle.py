"""The embedded server outlives CLI calls, stops on `graphmem stop` or when idle."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from graphmem.processes import alive
from graphmem.store.embedded import EmbeddedServer
from graphmem.store.falkordb import FalkorDBStore


def graphmem(home: Path, *args: str, idle: float | None = None) -> subprocess.CompletedProcess:
    """Run the `graphmem` command as a user would, in its own process."""
    env = dict(os.environ)
    if idle is not None:
        env["GRAPHMEM_IDLE_TIMEOUT"] = str(idle)
    return subprocess.run(
        [sys.executable, "-c", "from graphmem.cli import main; main()", "--home", str(home), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def wait_until(condition, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def test_the_server_survives_a_cli_call_and_serves_the_next(home):
    first = graphmem(home, "people", "--user", "u")
    assert first.returncode == 0, first.stderr
    server = EmbeddedServer(home)
    pid = server.pid()
    assert pid is not None  # the CLI process is gone, the server is not
    assert graphmem(home, "people", "--user", "u").returncode == 0
    assert server.pid() == pid
    status = graphmem(home, "status")
    assert status.returncode == 0
    assert f"pid           {pid}" in status.stdout
    assert "idle timeout  900s" in status.stdout
    assert "clients       0" in status.stdout


def test_status_json_shows_the_connected_clients(home):
    store = FalkorDBStore.open_embedded(home)
    try:
        info = EmbeddedServer(home).info()
        assert info is not None
        assert info.clients == [store.name]
        assert info.idle_timeout_s == 900.0
        assert info.rss_bytes > 1_000_000
    finally:
        store.close()
    assert EmbeddedServer(home).info() is None  # the last client stopped it


def test_graphmem_stop_stops_the_server_and_its_watchdog(home):
    assert graphmem(home, "people", "--user", "u").returncode == 0
    server = EmbeddedServer(home)
    pid, watchdog = server.pid(), server.watchdog_pid()
    assert pid is not None
    assert watchdog is not None
    stopped = graphmem(home, "stop")
    assert stopped.stdout.strip() == "stopped"
    assert not alive(pid)
    assert wait_until(lambda: not alive(watchdog), 5)
    assert graphmem(home, "status").returncode == 1
    assert graphmem(home, "stop").stdout.strip() == "was not running"


def test_the_idle_watchdog_stops_an_idle_server(home):
    assert graphmem(home, "remember", "Bob likes tea", "--user", "u", idle=2).returncode == 0
    server = EmbeddedServer(home)
    pid, watchdog = server.pid(), server.watchdog_pid()
    assert pid is not None
    assert watchdog is not None
    assert wait_until(lambda: not alive(pid))
    assert wait_until(lambda: not alive(watchdog), 5)
    assert not server.socket.exists()
    assert not server.pidfile.exists()
    assert "after 2s idle" in server.watchdog_logfile.read_text()
    listed = graphmem(home, "list", "--user", "u", "--json")  # nothing was lost
    assert '"fact": "Bob likes tea"' in listed.stdout


def test_an_open_client_keeps_the_server_alive_past_the_idle_timeout(home):
    server = EmbeddedServer(home, idle_timeout=1)
    with server.locked():
        socket_path = server.ensure_running()
    store = FalkorDBStore(socket_path, server=server)  # a quiet, open Memory
    pid = server.pid()
    time.sleep(3.5)
    assert server.pid() == pid
    store.detach()  # gone without stopping it: now the watchdog does
    assert wait_until(lambda: not alive(pid), 10)


def test_idle_timeout_zero_means_no_watchdog(home):
    assert graphmem(home, "people", "--user", "u", idle=0).returncode == 0
    server = EmbeddedServer(home)
    assert server.pid() is not None
    assert server.watchdog_pid() is None
    assert "idle timeout  never" in graphmem(home, "status").stdout


def test_a_killed_server_is_replaced_with_a_fresh_watchdog(home):
    assert graphmem(home, "people", "--user", "u").returncode == 0
    server = EmbeddedServer(home)
    old_pid, old_watchdog = server.pid(), server.watchdog_pid()
    os.kill(old_pid, signal.SIGKILL)
    assert wait_until(lambda: not alive(old_pid), 5)
    assert server.pidfile.exists()
    assert server.socket.exists()
    assert graphmem(home, "people", "--user", "u").returncode == 0
    new_pid = server.pid()
    assert new_pid not in (None, old_pid)
    assert wait_until(lambda: not alive(old_watchdog), 5)  # followed its server
    assert server.watchdog_pid(new_pid) not in (None, old_watchdog)


def test_four_concurrent_starters_end_up_with_one_server(home):
    script = textwrap.dedent(f"""
        from graphmem.store.embedded import EmbeddedServer
        from graphmem.store.falkordb import FalkorDBStore
        store = FalkorDBStore.open_embedded({str(home)!r})
        print(EmbeddedServer({str(home)!r}).pid())
        store.detach()
    """)
    starters = [
        subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    pids = {int(p.communicate(timeout=120)[0].strip()) for p in starters}
    assert pids == {EmbeddedServer(home).pid()}
    servers = subprocess.run(
        ["pgrep", "-f", f"unixsocket:{home}/"], capture_output=True, text=True, check=False
    ).stdout.split()
    assert servers == [str(pids.pop())]
