"""Saved recall state read in place: a file of plain values and numpy arrays, mapped.

A process serving more users than its passages budget holds restores a user from their
file on most recalls (graphmem/recall/passages.py), so restoring must cost neither time
nor heap in proportion to the user. The file is a small marshalled header (plain values,
and where each array lies) followed by the arrays, 8-byte aligned; ``load`` maps it and
hands out the arrays as read-only views of the mapping: nothing is decoded until a
query reads it, the pages a query touches are the kernel's page cache (shared, and
dropped with the mapping when the user is evicted), and the heap is not left fragmented
by megabytes read and freed per restore. Strings that are looked up (card ids, sources,
words) are saved as ``Keys``: a sorted array of their UTF-8 bytes, searched in place.

Files are replaced (written aside and renamed), never changed in place: a mapping of a
file truncated under it would fault. Each mapping holds a file descriptor (CPython's mmap
keeps a duplicate until it is unmapped), one per user held: a budget holding more users
than the process may open files makes the excess fail to map, and those users are read
from the store instead.
"""

from __future__ import annotations

import marshal
import mmap
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

_MAGIC = b"GMPACK01"
_ALIGN = 8
#: Python bytes of a dict entry with its key (a key added after the file was read)
ENTRY_BYTES = 100


class Keys:
    """Strings to row numbers. Those read from a file are a sorted array of their UTF-8
    bytes (``pack``) with the row of each, found by binary search without an object per
    key; those added since are a dict. Keys are never removed.

    >>> keys = Keys()
    >>> keys["b"], keys["a"] = 0, 1
    >>> restored = Keys(*keys.pack())
    >>> restored["c"] = 2
    >>> restored.get("a"), restored.get("b"), restored.get("c"), restored.get("d")
    (1, 0, 2, None)
    >>> sorted(restored), len(restored)
    (['a', 'b', 'c'], 3)
    """

    __slots__ = ("_added", "_by_row", "_packed", "_rows")

    def __init__(self, packed: np.ndarray | None = None, rows: np.ndarray | None = None) -> None:
        """``rows``: of each packed key (None: its place in ``packed``)."""
        self._packed = np.zeros(0, dtype="S1") if packed is None else packed
        self._rows = rows
        if rows is not None and len(rows) != len(self._packed):
            raise ValueError("packed keys and their rows differ in length")
        self._added: dict[str, int] = {}
        self._by_row: np.ndarray | None = None  # row -> place in ``_packed`` (-1: none)

    def get(self, key: str) -> int | None:
        row = self._added.get(key)
        if row is not None or not len(self._packed):
            return row
        said = key.encode()
        if len(said) > self._packed.itemsize:
            return None
        i = int(np.searchsorted(self._packed, said))
        if i < len(self._packed) and self._packed[i] == said:
            return i if self._rows is None else int(self._rows[i])
        return None

    def __contains__(self, key: str) -> bool:
        return self.get(key) is not None

    def __setitem__(self, key: str, row: int) -> None:
        self._added[key] = row

    def __len__(self) -> int:
        return len(self._packed) + len(self._added)

    def __iter__(self) -> Iterator[str]:
        yield from (said.decode() for said in self._packed.tolist())
        yield from self._added

    @property
    def nbytes(self) -> int:
        rows = 0 if self._rows is None else self._rows.nbytes
        rows += 0 if self._by_row is None else self._by_row.nbytes
        return self._packed.nbytes + rows + ENTRY_BYTES * len(self._added)

    def key(self, i: int) -> str:
        """The ``i``-th packed key (in sorted order)."""
        return bytes(self._packed[i]).decode()

    def packed_key_of(self, row: int) -> str | None:
        """The packed key whose row is ``row`` (None: no packed key has it).

        >>> Keys(np.array([b"a", b"b"]), np.array([5, 2])).packed_key_of(2)
        'b'
        """
        if self._by_row is None:
            rows = np.arange(len(self._packed)) if self._rows is None else self._rows
            self._by_row = np.full(int(rows.max(initial=-1)) + 1, -1, dtype=np.int64)
            self._by_row[rows] = np.arange(len(rows))
        at = int(self._by_row[row]) if 0 <= row < len(self._by_row) else -1
        return self.key(at) if at >= 0 else None

    def pack(self) -> tuple[np.ndarray, np.ndarray]:
        """Every key as UTF-8 bytes in sorted order (a fixed-width bytes array) and the
        row of each."""
        said = [key.encode() for key in self]
        packed = np.arange(len(self._packed)) if self._rows is None else self._rows
        rows = np.concatenate(
            [packed, np.fromiter(self._added.values(), np.int64, len(self._added))]
        )
        width = max((len(s) for s in said), default=1) or 1
        packed = np.array(said, dtype=f"S{width}")
        order = np.argsort(packed, kind="stable")
        return packed[order], rows[order].astype(np.int64)


def dump(path: Path, header: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
    """Write ``header`` (plain values: marshal) and ``arrays`` to ``path``."""
    # name -> dtype, offset after the header, shape
    table: dict[str, tuple[str, int, tuple[int, ...]]] = {}
    offset = 0
    for name, array in arrays.items():
        table[name] = (array.dtype.str, offset, array.shape)
        offset += -(-array.nbytes // _ALIGN) * _ALIGN
    head = marshal.dumps({"header": header, "arrays": table})
    start = -(-(len(_MAGIC) + 8 + len(head)) // _ALIGN) * _ALIGN
    # 0600 whatever the umask: the file holds the user's words
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(_MAGIC + len(head).to_bytes(8, "little") + head)
        out.write(b"\0" * (start - out.tell()))
        for array in arrays.values():
            data = np.ascontiguousarray(array).tobytes()
            out.write(data + b"\0" * (-len(data) % _ALIGN))


def load(path: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]] | None:
    """The header and the arrays ``dump`` wrote, the arrays read-only views of the file
    mapped (None: not such a file)."""
    try:
        with path.open("rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < len(_MAGIC) + 8:
                return None
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    if mapped[: len(_MAGIC)] != _MAGIC:
        return None
    length = int.from_bytes(mapped[len(_MAGIC) : len(_MAGIC) + 8], "little")
    end = len(_MAGIC) + 8 + length
    try:
        state = marshal.loads(mapped[len(_MAGIC) + 8 : end])
        start = -(-end // _ALIGN) * _ALIGN
        arrays = {
            name: np.frombuffer(
                mapped, dtype=np.dtype(dtype), count=int(np.prod(shape)), offset=start + at
            ).reshape(shape)
            for name, (dtype, at, shape) in state["arrays"].items()
        }
        return state["header"], arrays
    except (ValueError, EOFError, TypeError, KeyError):
        return None
