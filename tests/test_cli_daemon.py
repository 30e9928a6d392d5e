"""The graphmem daemon: a warm call prints exactly what an in-process one prints, exits
with the same code, and is fast; the daemon starts on first use, steps down for other
code or settings and for a dead store, idles out, and ``graphmem stop`` ends it."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.launcher import HANDED_ENV, PROTOCOL, code_fingerprint, settings_of
from graphmem.store.embedded import EmbeddedServer
from tests.conftest import short_tmpdir

GRAPHMEM = [sys.executable, "-m", "graphmem.launcher"]


def environment(daemon: bool = True, **env: str) -> dict[str, str]:
    environ = {**os.environ, "COLUMNS": "120", "GRAPHMEM_DAEMON": "on" if daemon else "off"}
    environ.pop("GRAPHMEM_HOME", None)
    return {**environ, **env}


def gm(
    home: Path, *args: str, daemon: bool = True, timeout: float = 300, **env: str
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*GRAPHMEM, *args, "--home", str(home)],
        env=environment(daemon, **env),
        capture_output=True,
        text=True,
        timeout=timeout,
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


# -- whose daemon: nothing is handed to a socket another account may have made ----------

#: a daemon that is not graphmem's: it prints each request it gets, writes "remembered"
#: to the caller's stdout and answers exit 0, as a daemon would. Standard library only.
FAKE_DAEMON = textwrap.dedent(
    """
    import os, socket, sys
    path, drop_to = sys.argv[1], int(sys.argv[2])
    os.umask(0o177)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    if drop_to >= 0:  # bound as this account, listening as another
        os.setuid(drop_to)
    listener.listen(8)
    listener.settimeout(120)
    print("listening", flush=True)
    while True:
        conn, _ = listener.accept()
        data, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
        conn.settimeout(1)
        try:
            while data and not data.endswith(b"\\n"):
                data += conn.recv(1 << 20)
        except OSError:
            pass
        print(data.decode(errors="replace").strip(), flush=True)
        conn.sendall(b'{"ready": true, "taken": true}\\n')
        more = []
        try:  # a caller that sends its terminal with its go
            _, more, _, _ = socket.recv_fds(conn, 16, 3)
        except OSError:
            pass
        if len(fds or more) == 3:
            os.write((fds or more)[1], b"remembered c_fake\\n")
        conn.sendall(b'{"exit": 0}\\n')
        conn.close()
        for fd in fds + more:  # the caller's stdio: closed, so its reader sees the end
            os.close(fd)
    """
)
NOBODY = 65534
as_root = pytest.mark.skipif(
    os.getuid() != 0, reason="a daemon of another account needs root to run as another uid"
)


@contextlib.contextmanager
def fake_daemon(home: Path, *, user: int | None = None, drop_to: int = -1) -> Iterator[list[str]]:
    """A fake daemon listening on ``home``'s socket; yields the requests it got (filled
    in when the block ends)."""
    fake = subprocess.Popen(
        ["/usr/bin/python3", "-c", FAKE_DAEMON, str(home / "daemon.sock"), str(drop_to)],
        stdout=subprocess.PIPE,
        text=True,
        user=user,
    )
    assert fake.stdout is not None
    assert fake.stdout.readline().strip() == "listening"
    got: list[str] = []
    try:
        yield got
    finally:
        fake.kill()
        got.extend(line for line in fake.communicate()[0].splitlines() if line)


@as_root
def test_a_daemon_of_another_account_in_a_shared_directory_gets_nothing(home: Path):
    home.chmod(0o777)  # a shared working directory, say: anyone can make a socket here
    with fake_daemon(home, user=NOBODY) as got:
        call = gm(home, "remember", "I like green tea", "-u", "ada", API_TOKEN="s3cret")
    assert got == []  # no argv, no environment, no terminal
    assert call.returncode == 0, call.stderr
    assert call.stdout.startswith("remembered ")
    assert "c_fake" not in call.stdout
    assert "not using the daemon" in call.stderr
    assert f"uid {NOBODY}" in call.stderr
    assert (home.stat().st_mode & 0o777) == 0o700  # and the home is this account's again
    listed = gm(home, "list", "-u", "ada", "--json", daemon=False)
    assert "green tea" in listed.stdout  # written in-process, not swallowed


@as_root
def test_a_socket_listened_on_by_another_uid_gets_nothing(home: Path):
    with fake_daemon(home, drop_to=NOBODY) as got:  # socket file 0600, this account's
        call = gm(home, "remember", "I like green tea", "-u", "ada")
    assert got == []
    assert call.returncode == 0, call.stderr
    assert call.stdout.startswith("remembered ")
    assert "c_fake" not in call.stdout
    assert f"runs as uid {NOBODY}" in call.stderr


def test_a_call_hands_over_only_what_a_command_reads(home: Path):
    with fake_daemon(home) as got:  # this account's own: the call is handed over
        call = gm(home, "list", "-u", "ada", API_TOKEN="s3cret", NO_COLOR="1", TZ="UTC")
    assert call.stdout == "remembered c_fake\n"
    [request] = [json.loads(line) for line in got]
    env = request["env"]
    assert "s3cret" not in json.dumps(request)
    assert "PATH" not in env
    assert all(k.startswith("GRAPHMEM_") or k in HANDED_ENV for k in env), sorted(env)
    assert (env["NO_COLOR"], env["TZ"], env["COLUMNS"]) == ("1", "UTC", "120")


def open_to_others(home: Path) -> list[str]:
    paths = [home, *home.rglob("*")]
    return [f"{p} {oct(p.lstat().st_mode)}" for p in paths if p.lstat().st_mode & 0o077]


def test_the_daemon_and_store_files_are_private_whatever_the_umask(home: Path):
    home.rmdir()
    made = subprocess.run(
        [*GRAPHMEM, "remember", "Bob has a secret", "-u", "ada", "--home", str(home)],
        env=environment(),
        capture_output=True,
        text=True,
        timeout=300,
        umask=0,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    assert daemon_pid(home) is not None
    assert {p.name for p in home.iterdir()} >= {"daemon.sock", "daemon.log", "falkordb"}
    assert open_to_others(home) == []


# -- no caller stops the daemon or holds up the others -----------------------------------


def raw_call(home: Path, request: object) -> dict:
    """Send ``request`` as a launcher would (with /dev/null for stdio); the first reply."""
    null = os.open(os.devnull, os.O_RDWR)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(str(home / "daemon.sock"))
        sock.settimeout(30)
        body = request if isinstance(request, bytes) else json.dumps(request).encode()
        socket.send_fds(sock, [body + b"\n"], [null, null, null])
        line = sock.makefile("rb").readline()
    os.close(null)
    return json.loads(line) if line else {}


def test_malformed_requests_are_refused_and_the_daemon_keeps_serving(home: Path):
    assert gm(home, "remember", "I like green tea", "-u", "ada").returncode == 0
    pid = daemon_pid(home)
    good = {
        "protocol": PROTOCOL,
        "code": code_fingerprint(),
        "settings": settings_of(environment()),
        "argv": ["list", "-u", "ada", "--home", str(home)],
        "prog": "graphmem",
        "cwd": str(home),
        "env": {},
    }
    a_file = home / "daemon.log"
    for bad in (
        {**good, "env": ["PATH=/bin"]},
        {**good, "env": {"COLUMNS": 80}},
        {**good, "argv": 5},
        {**good, "argv": ["list", "-u", "ada"]},  # another data directory: ./.graphmem
        {**good, "cwd": str(home / "gone")},
        {**good, "cwd": str(a_file)},
        {**good, "cwd": None},
        {**good, "prog": ["x"]},
        [good],
    ):
        reply = raw_call(home, bad)
        assert "unavailable" in reply, (bad, reply)
    assert raw_call(home, b"{not json") == {}
    assert daemon_pid(home) == pid
    listed = gm(home, "list", "-u", "ada")
    assert listed.returncode == 0
    assert "green tea" in listed.stdout
    assert daemon_pid(home) == pid
    assert len(calls_served(home)) == 2


def test_a_call_from_a_deleted_working_directory_runs(home: Path, tmp_path: Path):
    assert gm(home, "remember", "I like green tea", "-u", "ada").returncode == 0
    gone = tmp_path / "gone"
    gone.mkdir()
    script = 'cd "$1" && rmdir "$1" && shift && exec "$@"'
    args = [*GRAPHMEM, "list", "-u", "ada", "--home", str(home)]
    call = subprocess.run(
        ["/bin/sh", "-c", script, "sh", str(gone), *args],
        env=environment(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert (call.returncode, call.stderr) == (0, "")
    assert "green tea" in call.stdout


def small_pipe() -> tuple[int, int]:
    """A pipe that holds one page: a writer blocks after 4 KiB nobody reads."""
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, 4096)
    return read_end, write_end


def test_a_caller_that_does_not_read_its_output_holds_up_no_other_call(home: Path):
    for i in range(12):
        fact = f"I keep a note number {i} about the garden, the tea and the long walks"
        assert gm(home, "remember", fact, "-u", "ada").returncode == 0
    read_end, write_end = small_pipe()
    stalled = subprocess.Popen(  # graphmem list --json | (nobody reads)
        [*GRAPHMEM, "list", "-u", "ada", "--json", "--home", str(home)],
        env=environment(),
        stdout=write_end,
    )
    os.close(write_end)
    try:
        time.sleep(1)  # handed over and writing
        assert stalled.poll() is None  # still waiting for its reader
        times = []
        for _ in range(3):
            started = time.perf_counter()
            other = gm(home, "recall", "tea", "-u", "ada", timeout=20)
            times.append(time.perf_counter() - started)
            assert other.returncode == 0
            assert "tea" in other.stdout
        assert len(calls_served(home)) == 12 + 1 + 3  # all warm, the stalled one too
        assert sorted(times)[1] < 2.0, times
    finally:
        with os.fdopen(read_end, "rb") as reader:
            output = reader.read()
        assert stalled.wait(timeout=60) == 0
    assert len(json.loads(output)) == 12  # all of it, once its reader reads


def test_a_call_stalled_on_its_terminal_sends_the_others_in_process(home: Path):
    import pty

    from graphmem import Card, Memory
    from graphmem.launcher import TAKE_TIMEOUT

    fact = "I keep note number {} about the garden, the tea and the long walks by the river"
    with Memory.open(home) as memory:
        memory.remember_many([Card(user_id="ada", fact=fact.format(i)) for i in range(800)])
    assert gm(home, "list", "-u", "ada").returncode == 0  # the daemon is up
    master, terminal = pty.openpty()  # a terminal nobody reads: its buffer fills up
    stalled = subprocess.Popen(
        [*GRAPHMEM, "list", "-u", "ada", "--json", "--limit", "800", "--home", str(home)],
        env=environment(),
        stdout=terminal,
    )
    os.close(terminal)
    try:
        time.sleep(2)
        assert stalled.poll() is None  # the daemon is writing to that terminal, blocked
        started = time.perf_counter()
        other = gm(home, "recall", "tea", "-u", "ada", "--k", "1", timeout=60)
        waited = time.perf_counter() - started
        assert other.returncode == 0, other.stderr
        assert "tea" in other.stdout
        assert TAKE_TIMEOUT <= waited < TAKE_TIMEOUT + 20  # then in-process
    finally:
        os.set_blocking(master, False)
        deadline = time.monotonic() + 60
        while stalled.poll() is None and time.monotonic() < deadline:
            try:
                os.read(master, 1 << 16)
            except BlockingIOError:
                time.sleep(0.01)
            except OSError:  # EIO: the terminal's last writer closed it
                break
        os.close(master)
    assert stalled.wait(timeout=60) == 0
    served = [line.split(":")[0] for line in calls_served(home)]
    assert served == ["list", "list"]  # the recall that gave up never ran in the daemon
