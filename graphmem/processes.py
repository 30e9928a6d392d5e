"""Is a process alive? Standard library only: the ``graphmem`` command's hand-off to its
daemon (graphmem.launcher) asks it before anything heavy is imported."""

from __future__ import annotations

import os


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie is dead for our purposes; a process of another
    user, which we may not signal, is alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ", 1)[1][:1] != "Z"
    except (FileNotFoundError, IndexError):
        return False
