"""The graphmem daemon: a warm process per data directory that runs CLI calls.

Started by the ``graphmem`` command on first use (``graphmem.launcher``, which says
which calls come here and why) as ``python -m graphmem.daemon --home H``. It opens
``Memory`` once (model loaded, store connected), then listens on ``H/daemon.sock``
(mode 0600, callers of the same uid only) and runs one call at a time: the caller's
stdin, stdout and stderr (sent once the daemon is ready for the call) become its own,
with the caller's working directory and the environment it handed over
(``launcher.handed_env``), and the CLI runs as it would in-process, so output and exit
code are the same. It exits after ``GRAPHMEM_IDLE_TIMEOUT`` seconds without a call
(default 900, 0 = never), on SIGTERM (``graphmem stop``) after the call in hand, when
its socket is removed or replaced, and when a call comes from other code or settings
(the caller then starts a fresh daemon).

No caller can stop it or hold up the others: a request that is not well formed is
answered ``unavailable`` (the caller runs in-process) and the next one is served; what a
call writes to a pipe goes through this process (``_Relay``), so a caller that does not
read its output (``graphmem list | sleep 20``) stalls only itself; and a caller that
stalls a call otherwise (a terminal that takes no more output) keeps the others waiting
at most ``launcher.TAKE_TIMEOUT`` seconds before they run in-process.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import queue
import signal
import socket
import stat
import sys
import threading
import time
import traceback
from pathlib import Path
from types import FrameType
from typing import Any

import pydantic

from graphmem import private
from graphmem.launcher import (
    _MAX_REQUEST,
    HANDED_ENV,
    PROTOCOL,
    SOCKET_NAME,
    code_fingerprint,
    handed_env,
    settings_of,
    split_global_options,
    warm_home,
)
from graphmem.processes import alive, peer_uid

log = logging.getLogger(__name__)
#: seconds between looks at the idle clock and the socket file while nobody calls
_POLL = 2.0
#: seconds a caller may take to send its request, and its go once told the daemon is
#: ready (a launcher sends each at once; a stuck one must not hold the others)
_REQUEST_TIMEOUT = 5.0


class Request(pydantic.BaseModel):
    """A call, as the launcher sends it (``launcher.call``)."""

    model_config = pydantic.ConfigDict(extra="forbid", strict=True)

    protocol: int
    code: str
    settings: dict[str, str]
    argv: list[str]
    prog: str
    cwd: str
    env: dict[str, str]


class Daemon:
    """The warm process of one data directory."""

    def __init__(self, home: Path | str) -> None:
        self.home = Path(home).expanduser().absolute()
        self.socket_path = self.home / SOCKET_NAME
        self.pidfile = self.home / "daemon.pid"
        self.code = code_fingerprint()
        self.settings = settings_of(os.environ)
        self._busy = False
        self._stopping = False

    def serve(self) -> None:
        """Open memory, listen, run calls until idle, stopped or superseded."""
        from graphmem.cli import app as cli
        from graphmem.cli.app import share_memory
        from graphmem.config import Settings
        from graphmem.memory import Memory

        idle = Settings.from_env().idle_timeout
        memory = Memory.open(self.home, keep_server=True)
        try:
            memory.embedder.embed(["warm up"])  # the first call should not load anything
            share_memory(memory)
            listener = self._listen()
            signal.signal(signal.SIGTERM, self._on_term)
            try:
                self._loop(listener, cli, memory, idle)
            finally:
                listener.close()
                self._remove_own_files()
        finally:
            share_memory(None)
            memory.close()

    def _listen(self) -> socket.socket:
        with contextlib.suppress(FileNotFoundError):
            self.socket_path.unlink()  # the launcher holds daemon.lock: nobody else is here
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            listener.bind(str(self.socket_path))
        finally:
            os.umask(old)
        listener.listen(64)
        self._inode = self.socket_path.stat().st_ino
        self.pidfile.write_text(str(os.getpid()))
        return listener

    def _loop(self, listener: socket.socket, cli: Any, memory: Any, idle: float) -> None:
        listener.settimeout(_POLL)
        last = time.monotonic()
        while not self._stopping:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                if (idle and time.monotonic() - last >= idle) or not self._socket_is_ours():
                    return
                continue
            self._busy = True
            try:
                if not self._take(conn, cli, memory):
                    return
            except Exception:  # a bad call is the caller's problem, never the others'
                log.exception("a call failed in the daemon")
            finally:
                self._busy = False
            last = time.monotonic()

    def _take(self, conn: socket.socket, cli: Any, memory: Any) -> bool:
        """Answer one call; False when this daemon should step down. Closes ``conn``
        (and the caller's descriptors), now or once the call's output is delivered.

        Replies are JSON lines: ``ready`` when the call can run, after which the caller
        says ``go`` with its stdin, stdout and stderr (a caller that gave up meanwhile
        closed instead: nothing runs), then its ``exit`` code; or ``stale`` (this daemon
        steps down) or ``unavailable`` (run it in-process)."""
        conn.settimeout(_REQUEST_TIMEOUT)
        fds: list[int] = []
        finish: _Finish | None = None
        try:
            try:
                data = conn.recv(65536)
                while data and not data.endswith(b"\n") and len(data) < _MAX_REQUEST:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                raw = json.loads(data)
            except (OSError, ValueError):
                return True
            if not isinstance(raw, dict) or peer_uid(conn) != os.getuid():
                _reply(conn, {"unavailable": "not a call this daemon takes"})
                return True
            if (
                raw.get("protocol") != PROTOCOL
                or raw.get("code") != self.code
                or raw.get("settings") != self.settings
                or not _store_answers(memory)
            ):
                _reply(conn, {"stale": True, "pid": os.getpid()})
                return False
            try:
                request = Request.model_validate(raw)
            except pydantic.ValidationError as exc:
                where = ".".join(str(p) for p in exc.errors()[0]["loc"])
                _reply(conn, {"unavailable": f"malformed request: {where}"})
                return True
            if not os.path.isabs(request.cwd) or not os.path.isdir(request.cwd):
                _reply(conn, {"unavailable": "the working directory is not a directory"})
                return True
            env = handed_env(request.env)
            if warm_home(request.argv, env, request.cwd) != self.home:
                _reply(conn, {"unavailable": "not a call for this daemon"})
                return True
            _reply(conn, {"ready": True})
            try:
                go, fds, _, _ = socket.recv_fds(conn, 16, 3)
            except OSError:
                go = b""
            if go != b"go\n" or len(fds) != 3:
                return True  # the caller gave up waiting (and runs it in-process)
            conn.settimeout(None)  # a call may take as long as it takes
            started = time.perf_counter()
            relays = _relays(fds)
            code = run_cli(cli, request, fds, relays)
            log.info(  # the command's name only: arguments are users' memory
                "ran %s: exit %d in %.0f ms",
                _command(request.argv),
                code,
                (time.perf_counter() - started) * 1000,
            )
            finish = _Finish(conn, fds, relays, code)
            return True
        finally:
            if finish is None:
                _close(conn, fds)
            elif finish.relays:
                threading.Thread(target=finish, name="graphmem-finish").start()
            else:
                finish()

    def _socket_is_ours(self) -> bool:
        try:
            return self.socket_path.stat().st_ino == self._inode
        except OSError:
            return False

    def _remove_own_files(self) -> None:
        if self._socket_is_ours():
            self.socket_path.unlink()
        with contextlib.suppress(OSError, ValueError):
            if int(self.pidfile.read_text()) == os.getpid():
                self.pidfile.unlink()

    def _on_term(self, signum: int, frame: FrameType | None) -> None:
        self._stopping = True
        if not self._busy:  # waiting for a caller: stop now; else after the call in hand
            raise SystemExit(0)


class _Relay:
    """What a call writes to a caller's pipe, passed on through this process's memory.

    The command writes to a pipe of the daemon's, which a thread empties at once into a
    queue; another thread writes the queue to the caller's pipe. A caller that does not
    read (``graphmem list | sleep 20``) then stalls only that second thread, and the
    daemon goes on to the next call. When the caller's reader is gone (``| head``) the
    command's pipe is closed too, so it sees the broken pipe it would see in-process."""

    def __init__(self, target: int) -> None:
        self.target = os.dup(target)  # its own: the call's descriptors close on their own time
        self.read_end, self.write_end = os.pipe()
        self._chunks: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._broken = threading.Event()
        self._threads = [
            threading.Thread(target=self._drain, name="graphmem-relay-in", daemon=True),
            threading.Thread(target=self._deliver, name="graphmem-relay-out", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _drain(self) -> None:
        try:
            while not self._broken.is_set():
                data = os.read(self.read_end, 65536)
                if not data:
                    break
                self._chunks.put(data)
        finally:
            os.close(self.read_end)
            self._chunks.put(None)

    def _deliver(self) -> None:
        while (data := self._chunks.get()) is not None:
            if self._broken.is_set():
                continue
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(self.target, view) :]
            except OSError:
                self._broken.set()
        os.close(self.target)

    def join(self) -> None:
        """Wait until everything written is delivered (or the caller's reader is gone)."""
        for thread in self._threads:
            thread.join()


def _relays(fds: list[int]) -> dict[int, _Relay]:
    """Relays for the caller's stdout and stderr (by stdio number) where they are pipes
    or sockets, which a caller may leave unread; one relay when both are the same pipe
    (``2>&1 | ...``), so their lines keep their order. A terminal or a file is written
    directly: colours and widths stay the terminal's."""
    relays: dict[int, _Relay] = {}
    seen: dict[tuple[int, int], _Relay] = {}
    for n in (1, 2):
        info = os.fstat(fds[n])
        if not (stat.S_ISFIFO(info.st_mode) or stat.S_ISSOCK(info.st_mode)):
            continue
        key = (info.st_dev, info.st_ino)
        if key not in seen:
            seen[key] = _Relay(fds[n])
        relays[n] = seen[key]
    return relays


class _Finish:
    """The end of a call: its output delivered, then its exit code, then hang up."""

    def __init__(
        self, conn: socket.socket, fds: list[int], relays: dict[int, _Relay], code: int
    ) -> None:
        self.conn, self.fds, self.relays, self.code = conn, fds, relays, code

    def __call__(self) -> None:
        for relay in set(self.relays.values()):
            relay.join()
        _reply(self.conn, {"exit": self.code})
        _close(self.conn, self.fds)


def _close(conn: socket.socket, fds: list[int]) -> None:
    conn.close()
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


def run_cli(
    cli: Any, request: Request, fds: list[int], relays: dict[int, _Relay] | None = None
) -> int:
    """Run the CLI on the request's argv as the caller's process would: its stdio (or the
    ``relays`` to its pipes), environment and working directory for the length of the
    call. The exit code."""
    from graphmem.cli.app import reset_consoles

    relays = relays or {}
    saved = [os.dup(n) for n in range(3)]
    environ, cwd = dict(os.environ), os.getcwd()
    try:
        for n, fd in enumerate(fds):
            os.dup2(relays[n].write_end if n in relays else fd, n)
        for relay in set(relays.values()):
            os.close(relay.write_end)  # fds 1 and 2 hold it: EOF when they are restored
        sys.stdin = open(0, closefd=False)  # noqa: SIM115 - fresh: no bytes of another call
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__  # click may have wrapped them
        os.environ.clear()
        # the daemon's own environment stands in for what the caller did not hand over
        os.environ.update(
            {k: v for k, v in environ.items() if not _handed(k)} | handed_env(request.env)
        )
        time.tzset()
        os.chdir(request.cwd)
        reset_consoles()
        try:
            cli(args=request.argv, prog_name=request.prog or "graphmem")
            code: int = 0
        except SystemExit as exc:
            code = _exit_code(exc)
        except Exception:  # what the interpreter would print for an uncaught error
            traceback.print_exc()
            code = 1
        return code
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        for n, fd in enumerate(saved):
            os.dup2(fd, n)
            os.close(fd)
        sys.stdin.close()
        sys.stdin = sys.__stdin__
        os.environ.clear()
        os.environ.update(environ)
        time.tzset()
        os.chdir(cwd)
        reset_consoles()


def _handed(name: str) -> bool:
    """A variable a call hands over (so a call without it must not see the daemon's)."""
    return name.startswith("GRAPHMEM_") or name in HANDED_ENV


def _command(argv: list[str]) -> str:
    """The subcommand of ``argv``."""
    _, rest = split_global_options(argv)
    return rest[0] if rest else "?"


def pid_of(home: Path | str) -> int | None:
    """The pid of the running daemon of ``home``, if any."""
    try:
        pid = int((Path(home).expanduser().absolute() / "daemon.pid").read_text().strip())
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            ours = b"graphmem.daemon" in handle.read()  # not a stale file's reused pid
    except (OSError, ValueError):
        return None
    return pid if ours and alive(pid) else None


def stop(home: Path | str, *, timeout: float = 30.0) -> bool:
    """Stop the daemon of ``home`` (after the call in hand); True if one ran."""
    pid = pid_of(home)
    if pid is None:
        return False
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    if alive(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return True


def _exit_code(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    print(exc.code, file=sys.stderr)  # sys.exit("message")
    return 1


def _store_answers(memory: Any) -> bool:
    """A dead store is the in-process call's to restart: step down instead of failing."""
    try:
        return bool(memory.health())
    except Exception:
        return False


def _reply(conn: socket.socket, reply: dict[str, Any]) -> None:
    with contextlib.suppress(OSError):
        conn.sendall(json.dumps(reply).encode() + b"\n")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m graphmem.daemon")
    parser.add_argument("--home", required=True, help="The data directory to serve.")
    args = parser.parse_args()
    os.umask(private.UMASK)  # its pid file and log; the CLI writes no file of its own
    daemon = Daemon(args.home)
    # Its own lines go to its log whatever fd 2 is; other modules log as in-process.
    handler = logging.FileHandler(daemon.home / "daemon.log")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    log.info("graphmem daemon %d for %s starting", os.getpid(), daemon.home)
    try:
        daemon.serve()
    except SystemExit:  # SIGTERM while waiting for a call
        pass
    except Exception:
        log.exception("graphmem daemon %d stopped by an error", os.getpid())
        raise SystemExit(1) from None
    log.info("graphmem daemon %d stopped", os.getpid())


if __name__ == "__main__":
    main()
