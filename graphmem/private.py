"""A data directory only its owner can read: the home is 0700 and every file graphmem or
its FalkorDB server writes there is 0600, whatever the umask.

Cards are people's private lives, and a shared machine has other accounts: a home made
0755 with a 0644 AOF lets every local user read them. So graphmem makes its directories
with mode 0700 and its files with mode 0600 itself, starts the processes that write there
(the FalkorDB server, its watchdog, the CLI daemon) with umask 077, and tightens a home an
older graphmem left open (``tighten``). Standard library only: the ``graphmem`` command's
hand-off to its daemon (``graphmem.launcher``) uses it before anything heavy is imported.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from pathlib import Path

TYPE_CHECKING = False  # not typing's: the launcher's hand-off does not pay its import
if TYPE_CHECKING:
    from typing import TextIO

#: the umask of the processes graphmem starts in a data directory
UMASK = 0o077
#: entries of a home that graphmem made (the rest of a home is the user's own business)
_OWN_NAMES = ("falkordb", "daemon.sock", "daemon.pid", "daemon.lock", "daemon.log")


def make_dir(path: Path) -> None:
    """``path`` and its missing parents, the last one 0700 whatever the umask (an existing
    ``path`` is left as it is: ``tighten`` decides about that)."""
    existed = path.is_dir()
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not existed:
        os.chmod(path, 0o700)  # mkdir's mode is masked by the umask, never widened


def open_lock(path: Path) -> TextIO:
    """``open(path, "a+")`` for a lock file, created 0600 (an existing one keeps its mode)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC
    return os.fdopen(os.open(path, flags, 0o600), "a+")


def write_text(path: Path, text: str) -> None:
    """Write ``path`` through a 0600 temporary file renamed over it (readers never see half
    a file, and no reader of another account sees it at all)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(text)
    os.replace(tmp, path)


def tighten(home: Path) -> list[str]:
    """Take group and other permissions off ``home`` and the files graphmem made in it,
    where this account owns them; what could not be tightened, as sentences (empty when
    the home is private). A missing home is fine: it will be made private."""
    problems: list[str] = []
    try:
        _tighten_one(home, problems)
    except FileNotFoundError:
        return []
    for name in _OWN_NAMES:
        path = home / name
        if not os.path.lexists(path):
            continue
        _tighten_one(path, problems)
        if path.is_dir() and not path.is_symlink():
            for root, dirs, files in os.walk(path):
                for entry in (*dirs, *files):
                    _tighten_one(Path(root) / entry, problems)
    return problems


def _tighten_one(path: Path, problems: list[str]) -> None:
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode) or not info.st_mode & 0o077:
        return
    if info.st_uid != os.getuid():
        problems.append(
            f"{path} is readable by other accounts ({stat.filemode(info.st_mode)}) and owned "
            f"by uid {info.st_uid}, not this account ({os.getuid()})"
        )
        return
    with contextlib.suppress(FileNotFoundError):  # a pid file removed meanwhile
        os.chmod(path, stat.S_IMODE(info.st_mode) & 0o700)


def warn(problems: list[str]) -> None:
    """Say on stderr what ``tighten`` could not fix."""
    for problem in problems:
        sys.stderr.write(f"graphmem: warning: {problem}\n")
