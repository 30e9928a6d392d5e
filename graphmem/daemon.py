"""The graphmem daemon: a warm process per data directory that runs CLI calls.

Started by the ``graphmem`` command on first use (``graphmem.launcher``, which says
which calls come here and why) as ``python -m graphmem.daemon --home H``. It opens
``Memory`` once (model loaded, store connected), then listens on ``H/daemon.sock``
(mode 0600, callers of the same uid only) and runs one call at a time: the caller's
stdin, stdout and stderr (passed with the request) become its own, with the caller's
environment and working directory, and the CLI runs as it would in-process, so output
and exit code are the same. It exits after ``GRAPHMEM_IDLE_TIMEOUT`` seconds without a
call (default 900, 0 = never), on SIGTERM (``graphmem stop``) after the call in hand,
when its socket is removed or replaced, and when a call comes from other code or
settings (the caller then starts a fresh daemon).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import signal
import socket
import struct
import sys
import time
import traceback
from pathlib import Path
from types import FrameType
from typing import Any

from graphmem.launcher import (
    _MAX_REQUEST,
    PROTOCOL,
    SOCKET_NAME,
    code_fingerprint,
    settings_of,
    split_global_options,
    warm_home,
)
from graphmem.processes import alive

log = logging.getLogger(__name__)
#: seconds between looks at the idle clock and the socket file while nobody calls
_POLL = 2.0


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
                with conn:
                    if not self._take(conn, cli, memory):
                        return
            finally:
                self._busy = False
            last = time.monotonic()

    def _take(self, conn: socket.socket, cli: Any, memory: Any) -> bool:
        """Answer one call; False when this daemon should step down.

        Replies are JSON lines: ``taken`` before the command runs (a caller whose
        connection ends before it may try again: nothing ran), then its ``exit`` code;
        or ``stale`` (this daemon steps down) or ``unavailable`` (run it in-process)."""
        conn.settimeout(30)
        fds: list[int] = []
        try:
            try:
                data, fds, _, _ = socket.recv_fds(conn, 65536, 3)
                while data and not data.endswith(b"\n") and len(data) < _MAX_REQUEST:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                request = json.loads(data)
            except (OSError, ValueError):
                return True
            if not isinstance(request, dict) or len(fds) != 3 or not self._same_user(conn):
                _reply(conn, {"unavailable": "not a call this daemon takes"})
                return True
            if (
                request.get("protocol") != PROTOCOL
                or request.get("code") != self.code
                or request.get("settings") != self.settings
                or not _store_answers(memory)
            ):
                _reply(conn, {"stale": True, "pid": os.getpid()})
                return False
            argv = [str(a) for a in request.get("argv", [])]
            env = {str(k): str(v) for k, v in request.get("env", {}).items()}
            if warm_home(argv, env, str(request.get("cwd", "/"))) != self.home:
                _reply(conn, {"unavailable": "not a call for this daemon"})
                return True
            _reply(conn, {"taken": True})
            conn.settimeout(None)  # a call may take as long as it takes
            started = time.perf_counter()
            code = run_cli(cli, argv, request, fds)
            _reply(conn, {"exit": code})
            log.info(  # the command's name only: arguments are users' memory
                "ran %s: exit %d in %.0f ms",
                _command(argv),
                code,
                (time.perf_counter() - started) * 1000,
            )
            return True
        finally:
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def _same_user(self, conn: socket.socket) -> bool:
        creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        _, uid, _ = struct.unpack("3i", creds)
        return uid == os.getuid()

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


def run_cli(cli: Any, argv: list[str], request: dict[str, Any], fds: list[int]) -> int:
    """Run the CLI on ``argv`` as the caller's process would: its stdio, environment and
    working directory for the length of the call. The exit code."""
    from graphmem.cli.app import reset_consoles

    saved = [os.dup(n) for n in range(3)]
    environ, cwd = dict(os.environ), os.getcwd()
    try:
        for fd, n in zip(fds, range(3), strict=True):
            os.dup2(fd, n)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115 - fresh: no bytes of another call
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__  # click may have wrapped them
        os.environ.clear()
        os.environ.update({str(k): str(v) for k, v in request.get("env", {}).items()})
        time.tzset()
        os.chdir(str(request.get("cwd", "/")))
        reset_consoles()
        try:
            cli(args=argv, prog_name=str(request.get("prog") or "graphmem"))
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
