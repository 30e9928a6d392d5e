"""Faults, fast: flaky connections, a killed server or client, a bad or full data directory.

Faults are real where they can be (kill -9 of the server or a client, a tmpfs that fills
up); a flaky connection is a wrapper around the real client's ``execute_command`` that
fails a fixed number of times before passing the command on to the real server. Longer
runs of the same faults live in ``tests/stress`` (``make stress``).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from graphmem import Card, Memory
from graphmem.errors import ConflictError, GraphmemError, StoreUnavailableError
from graphmem.store import queries
from graphmem.store.embedded import EmbeddedServer

#: graphmem.store.falkordb retries a transient failure: 4 attempts in all.
ATTEMPTS = 4


class Flaky:
    """Wrap a client's ``execute_command``: the first ``failures`` calls whose query text
    contains ``match`` raise ``error``; with ``after`` the command runs first (the reply is
    lost, not the write)."""

    def __init__(
        self,
        real: Callable[..., Any],
        failures: int,
        *,
        match: str = "",
        error: type[Exception] = redis.exceptions.ConnectionError,
        after: bool = False,
    ) -> None:
        self.real, self.failures, self.match = real, failures, match
        self.error, self.after = error, after
        self.calls = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.match and not any(self.match in str(a) for a in args):
            return self.real(*args, **kwargs)
        self.calls += 1
        if self.calls <= self.failures:
            if self.after:
                self.real(*args, **kwargs)
            raise self.error("injected fault")
        return self.real(*args, **kwargs)


@pytest.fixture
def flaky(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Flaky]:
    """Install a ``Flaky`` on the session store's graph connection (undone after)."""
    graph = memory._store._graph  # type: ignore[attr-defined]

    def install(failures: int, **kwargs: Any) -> Flaky:
        wrapper = Flaky(graph.execute_command, failures, **kwargs)
        monkeypatch.setattr(graph, "execute_command", wrapper)
        return wrapper

    return install


# -- retries are bounded ----------------------------------------------------------------


@pytest.mark.parametrize(
    "error",
    [
        redis.exceptions.ConnectionError,
        redis.exceptions.TimeoutError,
        redis.exceptions.BusyLoadingError,
    ],
)
@pytest.mark.parametrize("failures", [1, ATTEMPTS - 1])
def test_fewer_failures_than_the_retry_limit_succeed(
    memory: Memory, user: str, flaky, failures: int, error
):
    card = memory.remember({"user_id": user, "fact": "Bob loves sushi"})
    wrapper = flaky(failures, error=error)
    assert memory.get(user, card.id).fact == "Bob loves sushi"
    assert wrapper.calls == failures + 1


@pytest.mark.parametrize("failures", [ATTEMPTS, ATTEMPTS + 1, 100])
def test_more_failures_give_store_unavailable_after_exactly_the_limit(
    memory: Memory, user: str, flaky, failures: int
):
    card = memory.remember({"user_id": user, "fact": "Bob loves sushi"})
    wrapper = flaky(failures)
    started = time.monotonic()
    with pytest.raises(StoreUnavailableError, match="unreachable"):
        memory.get(user, card.id)
    assert wrapper.calls == ATTEMPTS
    assert time.monotonic() - started < 5  # bounded backoff, no hanging


def test_a_lost_reply_on_create_is_not_a_duplicate(memory: Memory, user: str, flaky):
    flaky(1, match="MERGE (c:Card", after=True)  # the write lands, the reply is lost
    cards = [Card(user_id=user, fact=f"lost reply {i}") for i in range(5)]
    result = memory.remember_many(cards)
    assert result.created == 5
    assert memory.count(user) == {"active": 5}
    assert [c.version for c in memory.get_many(user, [c.id for c in cards])] == [1] * 5


def test_a_lost_reply_on_feedback_applies_it_once(memory: Memory, user: str, flaky):
    control = memory.remember({"user_id": user, "fact": "control card"})
    probe = memory.remember({"user_id": user, "fact": "probe card"})
    expected = memory.feedback(user, control.id, "up")
    flaky(1, match=queries.load("set_card_status", "falkordb")[:40], after=True)
    with contextlib.suppress(ConflictError):  # being told is fine; applying twice is not
        memory.feedback(user, probe.id, "up")
    got = memory.get(user, probe.id)
    assert (got.reward, got.confidence, got.version) == (
        expected.reward,
        expected.confidence,
        expected.version,
    )


def test_a_lost_reply_on_update_is_applied_once(memory: Memory, user: str, flaky):
    card = memory.remember({"user_id": user, "id": "pref", "fact": "I like tea"})
    flaky(1, match="c.version = $expected_version", after=True)
    changed = card.model_copy(update={"fact": "I like coffee"})
    with contextlib.suppress(ConflictError):  # told "changed meanwhile": honest
        memory.remember(changed)
    again = memory.get(user, "pref")
    assert (again.fact, again.version) == ("I like coffee", 2)


# -- kill -9 of the server in the middle of a batch ---------------------------------------


def batch(user: str, n: int) -> list[Card]:
    """Deterministic cards: the same input gives the same ids in any process."""
    return [
        Card(
            user_id=user,
            fact=f"fault-tolerance fact number {i}",
            person="Alice",
            timestamp=1_700_000_000_000 + i,
        )
        for i in range(n)
    ]


def kill_server(home: Path) -> int:
    server = EmbeddedServer(home)
    pid = server.pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    while server.pid() is not None:
        time.sleep(0.01)
    return pid


def test_kill_9_during_remember_many_loses_nothing_and_heals(home: Path):
    """The writer starts the killed server again and finishes (issue 19, point 5); the
    batch cut by the kill is written again, once."""
    cards = batch("u", 400)
    acknowledged: list[int] = []
    failure: list[BaseException] = []
    killed = threading.Event()

    def write() -> None:
        mem = Memory.open(home)
        try:
            mem.remember_many(cards, batch_size=40, progress=acknowledged.append)
        except GraphmemError as exc:
            failure.append(exc)
        finally:
            with contextlib.suppress(GraphmemError):
                mem.close()

    writer = threading.Thread(target=write)
    writer.start()
    while sum(acknowledged) < 120 and writer.is_alive():
        time.sleep(0.005)
    time.sleep(0.03)  # land the kill inside a batch, not between two
    kill_server(home)
    killed.set()
    writer.join(timeout=120)
    assert failure == []
    assert sum(acknowledged) == 400

    with Memory.open(home) as mem:
        ids = [c.id for c in cards]
        assert len(mem.get_many("u", ids)) == 400
        again = mem.remember_many(cards, batch_size=40)  # re-running changes nothing
        assert again.unchanged == 400
        assert mem.count("u") == {"active": 400}
        distinct = mem._store.execute(
            "MATCH (c:Card {user_id: 'u'}) RETURN count(c) AS n, count(DISTINCT c.id) AS d"
        )
        assert distinct == [{"n": 400, "d": 400}]
        assert [p.card_count for p in mem.people("u")] == [400]


# -- a killed client leaves nothing that blocks the next one -----------------------------


def _child(code: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)], stdout=subprocess.PIPE, text=True
    )


def test_a_client_killed_while_holding_the_lock_leaves_no_stale_lock(home: Path):
    child = _child(f"""
        import time
        from graphmem.store.embedded import EmbeddedServer
        with EmbeddedServer({str(home)!r}).locked():
            print("locked", flush=True)
            time.sleep(120)
    """)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "locked"
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    with open(EmbeddedServer(home).lockfile, "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free at once
        fcntl.flock(handle, fcntl.LOCK_UN)
    started = time.monotonic()
    with Memory.open(home) as mem:
        mem.remember({"user_id": "u", "fact": "written after the crash"})
    assert time.monotonic() - started < 30


def test_a_killed_client_neither_blocks_nor_keeps_the_server_alive(home: Path):
    child = _child(f"""
        import time
        from graphmem import Memory
        mem = Memory.open({str(home)!r})
        card = mem.remember({{"user_id": "u", "fact": "written by a client that dies"}})
        print(card.id, flush=True)
        time.sleep(120)
    """)
    assert child.stdout is not None
    card_id = child.stdout.readline().strip()
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    with Memory.open(home) as mem:
        assert mem.get("u", card_id).fact == "written by a client that dies"
    deadline = time.monotonic() + 10
    while EmbeddedServer(home).is_running() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not EmbeddedServer(home).is_running()  # the last live client stopped it


def test_a_stale_pid_file_of_another_program_is_ignored(home: Path):
    server = EmbeddedServer(home)
    server.dir.mkdir(parents=True)
    server.pidfile.write_text(str(os.getpid()))  # alive, but not a redis-server
    server.socket.write_text("")  # a leftover file where the socket goes
    with Memory.open(home) as mem:
        assert mem.remember({"user_id": "u", "fact": "fresh start"}).version == 1
        assert server.pid() != os.getpid()


# -- data directories that cannot work ----------------------------------------------------


@pytest.mark.parametrize("kind", ["file", "under a file", "under /proc"])
def test_an_unusable_data_directory_raises_store_unavailable(tmp_path: Path, kind: str):
    afile = tmp_path / "afile"
    afile.write_text("not a directory")
    home = {
        "file": afile,
        "under a file": afile / "sub",
        "under /proc": Path("/proc/graphmem-cannot-exist"),
    }[kind]
    with pytest.raises(StoreUnavailableError, match=str(home)):
        Memory.open(home)


@contextlib.contextmanager
def tiny_disk(size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` (needs root and mount rights; skips otherwise)."""
    import tempfile

    mount = Path(tempfile.mkdtemp(prefix="gmfull-", dir="/tmp"))
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        mount.rmdir()
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip()}): ENOSPC untested")
    try:
        yield mount
    finally:
        server = EmbeddedServer(mount)
        with server.locked():
            server.stop()
        subprocess.run(["umount", "-l", str(mount)], check=False)
        with contextlib.suppress(OSError):
            mount.rmdir()


def fill(mem: Memory, acked: list[str]) -> None:
    """Write 20-card batches of ~250-byte facts until the store fails."""
    for b in range(200):
        cards = [Card(user_id="u", fact=f"filler {b}-{i} " + "x" * 200) for i in range(20)]
        mem.remember_many(cards)
        acked += [c.id for c in cards]


def test_a_full_disk_fails_the_write_and_keeps_every_acknowledged_card():
    with tiny_disk("600k") as home:
        mem = Memory.open(home)
        acked: list[str] = []
        with pytest.raises(StoreUnavailableError):
            fill(mem, acked)
        assert acked  # some batches made it before the disk filled
        log = (home / "falkordb" / "server.log").read_text()
        assert "AOF" in log  # redis exits rather than acknowledge an unlogged write
        with contextlib.suppress(GraphmemError):
            mem.close()
        subprocess.run(["mount", "-o", "remount,size=20m", str(home)], check=True)
        with Memory.open(home) as again:
            assert len(again.get_many("u", acked)) == len(acked)
            assert again.count("u") == {"active": len(acked)}


def test_a_full_disk_error_says_why():
    with tiny_disk("600k") as home, Memory.open(home) as mem:
        with pytest.raises(StoreUnavailableError) as err:
            fill(mem, [])
        assert "AOF" in str(err.value) or "space" in str(err.value)
