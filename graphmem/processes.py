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
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ", 1)[1][:1] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def peer_uid(sock: socket.socket) -> int:
    """The uid of the process at the other end of a unix socket (SO_PEERCRED: for a
    listening socket, whoever called listen(); no way for the peer to lie about it)."""
    creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    return int(struct.unpack("3i", creds)[1])
