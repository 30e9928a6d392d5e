"""Is a process alive, and whose is the other end of a socket? Standard library only: the
``graphmem`` command's hand-off to its daemon (graphmem.launcher) asks both before
anything heavy is imported."""

from __future__ import annotations

import os
import socket
import struct


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie is dead for our purposes; a process of another
    user, which we may not signal, is alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return stat_fields(f"/proc/{pid}/stat")[:1] not in ([], ["Z"])


def stat_fields(path: str) -> list[str]:
    """The fields of a ``/proc/<pid>[/task/<tid>]/stat`` file after the command name,
    the state first (``proc(5)``: the name may hold ") " itself); [] if it is gone."""
    try:
        with open(path) as handle:
            return handle.read().rsplit(") ", 1)[1].split()
    except (FileNotFoundError, IndexError):
        return []


def peer_uid(sock: socket.socket) -> int:
    """The uid of the process at the other end of a unix socket (SO_PEERCRED: for a
    listening socket, whoever called listen(); no way for the peer to lie about it)."""
    creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    return int(struct.unpack("3i", creds)[1])
