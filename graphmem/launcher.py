"""The ``graphmem`` command's front door: hand a call to the warm graphmem daemon of the
data directory when there is one, else run it in this process.

A call in a fresh process pays Python's start-up, the CLI's imports and the embedding
model's load (about a second) before any work. The daemon (``graphmem.daemon``) has paid
them once: it holds an open ``Memory`` and runs commands for callers of the same user,
with the caller's own stdin, stdout and stderr (passed over the socket), working
directory and the part of its environment a command reads (``handed_env``), so a command
prints exactly what it would print in-process and exits with the same code. This module
imports only the standard library, so the hand-off costs milliseconds.

- Which calls: the commands in ``WARM_COMMANDS`` on the embedded store; anything else
  (``serve``, ``mcp``, ``import``, ``--help``, Neo4j) runs in-process.
- Started on first use, like the embedded store: the first call starts the daemon and
  waits for it (a cold call costs about what an in-process one does); it stops after
  ``GRAPHMEM_IDLE_TIMEOUT`` seconds without a call (default 900, 0 = never), and
  ``graphmem stop`` stops it with the store.
- Files in the data directory: ``daemon.sock`` (mode 0600; no TCP port), ``daemon.pid``,
  ``daemon.lock`` (held while one is started) and ``daemon.log``, all 0600 in a 0700 home
  (``graphmem.private``).
- Nothing is handed over unless the daemon is this account's: the data directory and the
  socket must be owned by the caller's uid and closed to other accounts, and the process
  listening must run as the caller's uid (SO_PEERCRED). Otherwise the call runs
  in-process and says why on stderr: in a directory another account can write to, a
  socket there may be anyone's.
- A busy daemon (a long call, or one stalled on a terminal that takes no more output;
  output to a pipe is relayed and stalls no one, see ``graphmem.daemon``) gets
  ``TAKE_TIMEOUT`` seconds to be ready for the call, then it runs in-process. The
  caller's stdin, stdout and stderr are sent only once the daemon is ready.
- A daemon serves only calls made with the code and the ``GRAPHMEM_*`` settings it was
  started with; otherwise it steps down and a fresh one starts.
- Falls back to in-process whenever the daemon cannot be used (it cannot start, the
  socket path is too long, the working directory was deleted, ``GRAPHMEM_DAEMON=off``);
  a daemon that dies in the middle of a call is an error (exit 1), never a silent second
  run.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import signal
import socket
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from graphmem import private
from graphmem.processes import alive, peer_uid

TYPE_CHECKING = False  # not typing's: its import is a tenth of the hand-off
if TYPE_CHECKING:
    from typing import BinaryIO

#: commands a daemon runs: each opens memory, does one thing and prints
WARM_COMMANDS = frozenset(
    {"remember", "recall", "context", "list", "show", "provenance", "people", "history"}
)
DAEMON_ENV = "GRAPHMEM_DAEMON"
SOCKET_NAME = "daemon.sock"
#: how the request and the reply look; a change makes old daemons step down
PROTOCOL = 2
#: seconds to wait for a daemon to come up (its first open of a large store is slow)
START_TIMEOUT = 600.0
#: settings that pick the daemon (its data directory) or the route, not how it behaves
_ROUTING_ENV = frozenset({"GRAPHMEM_HOME", DAEMON_ENV})
#: what a call hands over of its environment besides ``GRAPHMEM_*``: the terminal's size
#: and colour (rich reads them), the time zone dates are shown in, and HOME for ``~``.
#: Nothing else (tokens, keys, PATH...): the daemon's own environment stands in for it.
HANDED_ENV = frozenset(
    {
        "TERM",
        "COLORTERM",
        "COLUMNS",
        "LINES",
        "NO_COLOR",
        "FORCE_COLOR",
        "TTY_COMPATIBLE",
        "TTY_INTERACTIVE",
        "TZ",
        "HOME",
    }
)
#: seconds a call waits for a busy daemon to take it before it runs in-process
TAKE_TIMEOUT = 5.0
_MAX_REQUEST = 4 * 2**20
#: sockaddr_un.sun_path is 108 bytes on Linux, including the terminating NUL
_MAX_SOCKET_PATH = 107
#: options of the whole command, taken before or after the subcommand
GLOBAL_OPTIONS = ("--home", "--neo4j-uri")


class Unavailable(Exception):
    """The daemon cannot take this call: run it in-process."""


class Untrusted(Unavailable):
    """The daemon's socket may be another account's: run in-process, and say why."""


def main() -> None:
    """Entry point of the ``graphmem`` script."""
    argv = sys.argv[1:]
    try:
        cwd = os.getcwd()
    except OSError:  # deleted: a daemon could not work there; in-process still may
        cwd = None
    route = warm_home(argv, os.environ, cwd) if cwd is not None else None
    if route is not None and cwd is not None:
        try:
            code = call(route, argv, prog=program_name(), cwd=cwd)
        except Untrusted as exc:
            sys.stderr.write(f"graphmem: not using the daemon: {exc}; running in-process\n")
        except Unavailable:
            pass
        else:
            sys.exit(code)
    from graphmem.cli import main as in_process

    in_process()


def program_name() -> str:
    """What usage lines call this program: click's rule (``graphmem``, or
    ``python -m graphmem.launcher``), without importing click."""
    package = getattr(sys.modules["__main__"], "__package__", None)
    path = sys.argv[0]
    if not package:
        return os.path.basename(path)
    name = os.path.splitext(os.path.basename(path))[0]
    module = package if name == "__main__" else f"{package}.{name}"
    return f"python -m {module.lstrip('.')}"


def warm_home(
    argv: Sequence[str], environ: Mapping[str, str], cwd: str | None = None
) -> Path | None:
    """The data directory whose daemon should run ``argv`` from ``cwd`` (default: this
    process's), or None to run it in-process.

    Examples:
        >>> warm_home(["recall", "tea", "-u", "ada", "--home", "/h"], {})
        PosixPath('/h')
        >>> warm_home(["serve"], {}) is None
        True
        >>> warm_home(["recall", "tea", "-u", "ada"], {"GRAPHMEM_NEO4J_URI": "bolt://x"}) is None
        True
    """
    if environ.get(DAEMON_ENV, "").strip().lower() in ("0", "off", "false", "no"):
        return None
    if environ.get("GRAPHMEM_NEO4J_URI") or "--help" in argv or "--version" in argv:
        return None
    options, rest = split_global_options(argv)
    if "--neo4j-uri" in options or not rest or rest[0] not in WARM_COMMANDS:
        return None
    home = options.get("--home") or environ.get("GRAPHMEM_HOME") or ".graphmem"
    path = Path(home).expanduser()
    return path if path.is_absolute() else Path(cwd or os.getcwd()) / path


def hoist_global_options(argv: Sequence[str]) -> list[str]:
    """Move global options given after the subcommand to the front, where click reads
    them: ``graphmem list -u ada --home H`` works like ``graphmem --home H list -u ada``.

    Examples:
        >>> hoist_global_options(["list", "-u", "ada", "--home", "/h"])
        ['--home', '/h', 'list', '-u', 'ada']
        >>> hoist_global_options(["remember", "--", "--home"])  # after --, words are text
        ['remember', '--', '--home']
    """
    front, rest = _global_tokens(argv)
    return front + rest


def split_global_options(argv: Sequence[str]) -> tuple[dict[str, str], list[str]]:
    """The global options (``--home``, ``--neo4j-uri``) wherever given, and the rest.

    Examples:
        >>> split_global_options(["list", "-u", "ada", "--home=/h"])
        ({'--home': '/h'}, ['list', '-u', 'ada'])
    """
    front, rest = _global_tokens(argv)
    options: dict[str, str] = {}
    i = 0
    while i < len(front):
        name, eq, value = front[i].partition("=")
        options[name] = value if eq else (front[i + 1] if i + 1 < len(front) else "")
        i += 1 if eq else 2
    return options, rest


def _global_tokens(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """The tokens of the global options (with their values) and the other tokens."""
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest.extend(argv[i:])
            break
        if arg.partition("=")[0] in GLOBAL_OPTIONS:
            width = 1 if "=" in arg else 2
            front.extend(argv[i : i + width])
            i += width
            continue
        rest.append(arg)
        i += 1
    return front, rest


def handed_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The part of ``environ`` a call hands to the daemon: ``GRAPHMEM_*`` and
    ``HANDED_ENV``.

    Examples:
        >>> handed_env({"GRAPHMEM_K": "1", "COLUMNS": "80", "API_TOKEN": "s3cret"})
        {'COLUMNS': '80', 'GRAPHMEM_K': '1'}
    """
    return {
        k: v for k, v in sorted(environ.items()) if k.startswith("GRAPHMEM_") or k in HANDED_ENV
    }


def call(home: Path, argv: Sequence[str], *, prog: str = "graphmem", cwd: str | None = None) -> int:
    """Run ``argv`` in the daemon of ``home`` (started if need be); its exit code.

    Untrusted when the daemon may not be this account's, Unavailable when it cannot take
    the call: the caller runs it in-process; nothing was handed over then."""
    path = home / SOCKET_NAME
    if len(str(path).encode()) > _MAX_SOCKET_PATH:
        raise Unavailable("socket path too long")
    check_home(home)
    request = {
        "protocol": PROTOCOL,
        "code": code_fingerprint(),
        "settings": settings_of(os.environ),
        "argv": list(argv),
        "prog": prog,
        "cwd": cwd or os.getcwd(),
        "env": handed_env(os.environ),
    }
    for _ in range(3):  # a stale or vanishing daemon once; a new one takes the call
        with connected(home) as sock:
            replies = sock.makefile("rb")
            sock.settimeout(TAKE_TIMEOUT)
            try:
                sock.sendall(json.dumps(request).encode() + b"\n")
                reply = _read_reply(replies)
            except TimeoutError:  # closing: the daemon never runs it, and holds nothing
                raise Unavailable(
                    f"the daemon did not take the call in {TAKE_TIMEOUT:.0f}s"
                ) from None
            except OSError as exc:
                raise Unavailable(str(exc)) from None
            sock.settimeout(None)
            done: dict[str, object] = {}
            if reply.get("ready"):
                # stdio only now: a descriptor sent with a request that waits in a busy
                # daemon's queue would keep this call's pipes open after it ran in-process
                try:
                    socket.send_fds(sock, [b"go\n"], [0, 1, 2])
                except OSError as exc:  # a closed stdin, say: the daemon runs nothing
                    raise Unavailable(str(exc)) from None
                done = _read_reply(replies)
        if reply.get("unavailable"):
            raise Unavailable(str(reply["unavailable"]))
        if reply.get("stale"):
            _wait_gone(_int(reply.get("pid")))
            continue
        if not reply:  # gone before it was ready (stepping down, say): nothing ran
            continue
        if "exit" not in done:
            sys.stderr.write(
                "error: the graphmem daemon stopped in the middle of the command; "
                f"see {home / 'daemon.log'}\n"
            )
            return 1
        return _int(done["exit"])
    raise Unavailable("the daemon kept stepping down")


def check_home(home: Path) -> None:
    """Untrusted unless ``home`` (if it exists yet) is this account's and closed to others.

    A home this account owns is made private first (``graphmem.private.tighten``): one
    an older graphmem left 0755 is not a reason to give up the daemon."""
    try:
        problems = private.tighten(home)
        info = os.stat(home)
    except FileNotFoundError:
        return  # made 0700 by this call, before any daemon can listen in it
    except OSError as exc:
        raise Unavailable(str(exc)) from None
    if problems:
        raise Untrusted(problems[0])
    _check_owned(home, info)


def _check_owned(path: Path, info: os.stat_result) -> None:
    if info.st_uid != os.getuid():
        raise Untrusted(f"{path} belongs to uid {info.st_uid}, not to this account")
    if info.st_mode & 0o022:
        raise Untrusted(f"other accounts can write to {path}")


@contextlib.contextmanager
def connected(home: Path) -> Iterator[socket.socket]:
    """A connection to the daemon of ``home``, starting one if none answers."""
    sock = _connect(home)
    if sock is None:
        with _locked(home):
            sock = _connect(home) or _start_and_connect(home)
    try:
        yield sock
    finally:
        sock.close()


def _connect(home: Path) -> socket.socket | None:
    """A connection to the socket of ``home``, once it and the process listening on it
    are known to be this account's (Untrusted otherwise); None if nothing listens."""
    path = home / SOCKET_NAME
    try:
        _check_owned(path, os.lstat(path))
    except FileNotFoundError:
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(str(path))
        uid = peer_uid(sock)
    except OSError:
        sock.close()
        return None
    if uid != os.getuid():
        sock.close()
        raise Untrusted(f"the daemon listening on {path} runs as uid {uid}, not this account")
    return sock


@contextlib.contextmanager
def _locked(home: Path) -> Iterator[None]:
    try:
        private.make_dir(home)
        check_home(home)  # made just now, or by someone else meanwhile
        handle = private.open_lock(home / "daemon.lock")
    except OSError as exc:
        raise Unavailable(str(exc)) from None
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def _start_and_connect(home: Path) -> socket.socket:
    """Start a daemon for ``home`` and wait until it answers (or dies: Unavailable)."""
    import subprocess  # only to start one: a hand-off never pays its import

    log = home / "daemon.log"
    spawned = subprocess.run(
        [
            "/bin/sh",
            "-c",
            # backgrounded by sh, which exits at once: the daemon is reparented to init,
            # outlives us and never lingers as our zombie
            'log=$1; shift; "$@" </dev/null >>"$log" 2>&1 & echo $!',
            "sh",
            str(log),
            sys.executable,
            "-m",
            "graphmem.daemon",
            "--home",
            str(home),
        ],
        start_new_session=True,
        umask=private.UMASK,  # its pid file and log
        check=False,
        capture_output=True,
        text=True,
        timeout=30,
    )
    try:
        pid = int(spawned.stdout.strip())
    except ValueError:
        raise Unavailable("could not start the daemon") from None
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        sock = _connect(home)
        if sock is not None:
            return sock
        if not alive(pid):
            raise Unavailable("the daemon exited while starting")
        time.sleep(0.01)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    raise Unavailable("the daemon did not come up")


def _int(value: object) -> int:
    """A whole number from a reply (0 when it is not one)."""
    return value if type(value) is int else 0


def _read_reply(replies: BinaryIO) -> dict[str, object]:
    """The daemon's next reply line ({} when the connection ended first; TimeoutError
    when the socket has a timeout and it passed)."""
    try:
        line = replies.readline(_MAX_REQUEST)
        reply = json.loads(line) if line else {}
    except TimeoutError:
        raise
    except (OSError, ValueError):
        return {}
    return reply if isinstance(reply, dict) else {}


def _wait_gone(pid: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while pid and alive(pid) and time.monotonic() < deadline:
        time.sleep(0.01)


def settings_of(environ: Mapping[str, str]) -> dict[str, str]:
    """The ``GRAPHMEM_*`` settings a daemon must share with its callers."""
    return {
        k: v
        for k, v in sorted(environ.items())
        if k.startswith("GRAPHMEM_") and k not in _ROUTING_ENV
    }


def code_fingerprint() -> str:
    """Which graphmem is installed: the interpreter, and the size and mtime of every
    module and query file (an upgrade or an edit makes a running daemon step down)."""
    package = Path(__file__).parent
    digest = hashlib.sha1(f"{PROTOCOL}\0{sys.executable}".encode())
    kinds = (".py", ".cypher", ".json")  # a wheel's queries are in graphmem/cypher
    files = [*_files(package, kinds), *_files(package.parent / "cypher", kinds)]
    for path in sorted(files):
        stat = path.stat()
        digest.update(f"\0{path}\0{stat.st_size}\0{stat.st_mtime_ns}".encode())
    return digest.hexdigest()


def _files(folder: Path, suffixes: tuple[str, ...]) -> Iterator[Path]:
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if entry.is_dir() and entry.name != "__pycache__":
            yield from _files(Path(entry.path), suffixes)
        elif entry.name.endswith(suffixes):
            yield Path(entry.path)


if __name__ == "__main__":
    main()
