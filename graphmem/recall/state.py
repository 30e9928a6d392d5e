"""A user's counters in the store, read at every recall: is the user searched through
the vector index, and how many card writes and hard deletes the store has seen.

Every write that changes a user's cards (create, update, status) stamps them with the
user's next ``revision``, and a hard delete counts the user's ``deletions`` (see the
``cypher/`` files; ``tests/test_revision_stamps.py`` checks every such query). Recall's
passages (``graphmem.recall.passages``) compare both with what they hold: the same
revision, current; a newer one, the cards stamped since are read; a deletion, or a
counter that went back (the store was replaced), the user is read again. Every process
checks the counters in the store, so writes from other processes are seen by the next
recall.
"""

from __future__ import annotations

from dataclasses import dataclass

from graphmem.store.base import GraphStore

#: a vector candidate: card id and cosine
Candidate = tuple[str, float]


@dataclass(frozen=True)
class UserState:
    """A user's counters in the store (``user_vector_state``): routed through the vector
    index (``ann``), card writes (``revision``) and hard deletes (``deletions``)."""

    ann: bool = False
    revision: int = 0
    deletions: int = 0

    @classmethod
    def read(cls, store: GraphStore, user_id: str) -> UserState:
        rows = store.run("user_vector_state", {"user_id": user_id})
        if not rows:
            return cls()
        row = rows[0]
        return cls(bool(row["ann"]), int(row["revision"]), int(row["deletions"]))
