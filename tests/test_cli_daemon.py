"""The graphmem daemon: a warm call prints exactly what an in-process one prints, exits
with the same code, and is fast; the daemon starts on first use, steps down for other
code or settings and for a dead store, idles out, and ``graphmem stop`` ends it."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.store.embedded import EmbeddedServer
from tests.conftest import short_tmpdir

GRAPHMEM = [sys.executable, "-m", "graphmem.launcher"]


def gm(home: Path, *args: str, daemon: bool = True, **env: str) -> subprocess.CompletedProcess:
    environ = {**os.environ, "COLUMNS": "120", "GRAPHMEM_DAEMON": "on" if daemon else "off"}
    environ.pop("GRAPHMEM_HOME", None)
    return subprocess.run(
        [*GRAPHMEM, *args, "--home", str(home)],
        env={**environ, **env},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def clock(text: str) -> str:
    """``text`` without times of day (the twin's cards were made a moment apart)."""
    return re.sub(r"\b\d\d:\d\d(:\d\d)?\b", "hh:mm", text)


def daemon_pid(home: Path) -> int | None:
    try:
        pid = int((home / "daemon.pid").read_text())
    except (FileNotFoundError, ValueError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    return pid


def calls_served(home: Path) -> list[str]:
    log = (home / "daemon.log").read_text()
    return [line.split("ran ", 1)[1] for line in log.splitlines() if " ran " in line]


@pytest.fixture
def twin() -> Iterator[Path]:
    """A second data directory, for the same calls made in-process."""
    path = short_tmpdir()
    yield path
    EmbeddedServer(path).stop()
    shutil.rmtree(path, ignore_errors=True)


def test_a_warm_call_prints_and_exits_as_in_process(home: Path, twin: Path):
    assert daemon_pid(home) is None
    first = gm(home, "remember", "I like green tea", "-u", "ada")
    assert first.returncode == 0, first.stderr
    pid = daemon_pid(home)
    assert pid is not None  # started on first use
    assert gm(twin, "remember", "I like green tea", "-u", "ada", daemon=False).returncode == 0
    card = first.stdout.split()[1]
    calls = [
        ("remember", "Alice is allergic to peanuts", "-u", "ada", "--person", "Alice"),
        ("remember", "I like green tea", "-u", "ada"),  # said 2 times
        ("remember", "Alice is allergic to peanuts", "-u", "ada", "--person", "Alice"),
        ("recall", "what is Alice allergic to?", "-u", "ada"),
        ("recall", "tea", "-u", "ada", "--k", "1"),
        ("context", "dinner with Alice", "-u", "ada"),
        ("context", "dinner", "-u", "ada", "--budget", "5"),  # exit 2
        ("list", "-u", "ada"),
        ("list", "-u", "nobody"),  # exit 3
        ("show", card[:8], "-u", "ada"),
        ("show", "zzzzzzzz", "-u", "ada"),  # exit 3
        ("provenance", card[:8], "-u", "ada"),
        ("people", "-u", "ada"),
        ("history", card[:8], "-u", "ada"),
        ("recall", "tea", "-u", "ada", "--k", "0"),  # a usage error: exit 2
        ("remember", "x", "-u", "ada", "--timestamp", "2999-01-01"),  # exit 2
    ]
    codes = []
    for args in calls:  # the same calls on twin, in-process: the same answers
        warm, cold = gm(home, *args), gm(twin, *args, daemon=False)
        assert (warm.returncode, clock(warm.stdout), warm.stderr) == (
            cold.returncode,
            clock(cold.stdout),
            cold.stderr,
        ), args
        codes.append(warm.returncode)
    assert codes == [0, 0, 0, 0, 0, 0, 2, 0, 3, 0, 3, 0, 0, 0, 2, 2]
    assert daemon_pid(home) == pid  # one daemon served them all
    assert daemon_pid(twin) is None
    served = calls_served(home)
    assert len(served) == 1 + len(calls)
    assert served[0].startswith("remember: exit 0")
    assert "peanuts" not in (home / "daemon.log").read_text()  # names commands, not memory


def test_a_warm_call_is_fast(home: Path):
    gm(home, "remember", "I like green tea", "-u", "ada")
    times = []
    for _ in range(5):
        started = time.perf_counter()
        assert gm(home, "recall", "tea", "-u", "ada").returncode == 0
        times.append(time.perf_counter() - started)
    # The README's figure is bench/cli.py's; here only that it is not a cold start.
    assert sorted(times)[2] < 0.6, times


def test_other_settings_get_a_fresh_daemon_and_stop_ends_it(home: Path):
    gm(home, "remember", "I like green tea", "-u", "ada")
    first = daemon_pid(home)
    capped = gm(home, "remember", "I like coffee", "-u", "ada", GRAPHMEM_QUOTA_CARDS="1")
    assert capped.returncode == 6, capped.stderr  # the quota the call was made with
    second = daemon_pid(home)
    assert second not in (None, first)

    stopped = gm(home, "stop", daemon=False)
    assert (stopped.returncode, stopped.stdout.strip()) == (0, "stopped")
    assert daemon_pid(home) is None
    assert not (home / "daemon.sock").exists()
    assert not EmbeddedServer(home).is_running()


def test_a_dead_store_under_a_warm_daemon_is_started_again(home: Path):
    gm(home, "remember", "I like green tea", "-u", "ada")
    pid = EmbeddedServer(home).pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    while EmbeddedServer(home).pid() == pid:
        time.sleep(0.05)
    found = gm(home, "recall", "tea", "-u", "ada", "--json")
    assert found.returncode == 0, found.stderr
    assert "green tea" in found.stdout


def test_the_daemon_idles_out(home: Path):
    gm(home, "list", "-u", "ada", GRAPHMEM_IDLE_TIMEOUT="1")
    pid = daemon_pid(home)
    assert pid is not None
    deadline = time.monotonic() + 30
    while daemon_pid(home) is not None:
        assert time.monotonic() < deadline, "the daemon did not idle out"
        time.sleep(0.2)
    assert not (home / "daemon.sock").exists()


@pytest.mark.parametrize("why", ["off", "cannot start"])
def test_without_a_daemon_the_call_runs_in_process(home: Path, why: str):
    if why == "cannot start":
        (home / "daemon.log").mkdir()  # the daemon's log cannot be opened
    made = gm(home, "remember", "I like green tea", "-u", "ada", daemon=why != "off")
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith("remembered ")
    assert daemon_pid(home) is None


def test_concurrent_first_calls_start_one_daemon_and_all_succeed(home: Path):
    environ = {**os.environ, "COLUMNS": "120", "GRAPHMEM_DAEMON": "on"}
    calls = [
        subprocess.Popen(
            [*GRAPHMEM, "remember", f"I like tea number {i}", "-u", "ada", "--home", str(home)],
            env=environ,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(4)
    ]
    results = [(c.wait(timeout=300), *c.communicate()) for c in calls]
    assert [code for code, _, _ in results] == [0] * 4, results
    assert all(out.startswith("remembered ") for _, out, _ in results)
    assert len(calls_served(home)) == 4  # all by the daemon
    starts = (home / "daemon.log").read_text().count(" starting")
    assert starts == 1
