"""Recall's vector mirror: the card vectors of this process's busy users, held in memory.

Why: exact vector search in the store scores every card of the user on the server and is
the longest step of a recall (and the people channel scores the mentioned people's cards
again). The same cosine in numpy over vectors the process already holds is an order of
magnitude faster (docs/design.md, "Figures"), and per-person searches become array
lookups.

Staying current: every write that changes a user's cards (create, update, status)
stamps them with the user's next ``revision``, and a hard delete counts the user's
``deletions`` (see the ``cypher/`` files). Recall reads both counters in the lookup it
makes anyway (``user_vector_state``, while the query is embedded):

- same revision: the mirror is current;
- a newer revision: the cards stamped since are read (up to ``SYNC_LIMIT``; more, and
  this recall goes to the store while the mirror catches up in the background);
- a deletion, or a counter that went back (the store was replaced): the user's vectors
  are dropped and loaded again.

Every process checks the counters in the store, so writes from other processes are seen
by the next recall. Costs: loading reads every vector of the user (FalkorDB sends vectors
as text, which is slow), in a background thread once a user has been recalled
``LOAD_AFTER`` times in this process (a one-shot CLI call never loads); memory is
4 x dimension bytes a card, capped at ``budget_bytes`` (least recently used users go
first; a user larger than the whole budget stays in the store).
"""

from __future__ import annotations

import logging
import threading
from collections import Counter, OrderedDict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np

from graphmem.models import Status
from graphmem.recall.cosine import best, one_blas_thread, unit
from graphmem.recall.jobs import UserJobs
from graphmem.store.base import GraphStore

log = logging.getLogger(__name__)

#: a user's recalls in this process before their vectors are mirrored
LOAD_AFTER = 2
#: cards changed since the mirror's revision read inside a recall; more wait for the loader
SYNC_LIMIT = 256
#: cards read per query while loading
PAGE = 1000

_CODES = {status.value: code for code, status in enumerate(Status)}
#: the status code of a card without a vector (never a candidate)
NO_VECTOR = -1

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


@dataclass(frozen=True)
class VectorRoute:
    """How one recall finds vector candidates: the store (``ann``: through the HNSW
    index) or the process's mirror of the user's vectors (``mirrored``)."""

    ann: bool
    mirrored: UserVectors | None = None


@dataclass(frozen=True, eq=False)
class UserVectors:
    """One user's card vectors as of ``revision``: unit rows, status codes (``NO_VECTOR``
    for a card without one) and the people each card is about. Immutable: updates build
    a new one."""

    revision: int
    deletions: int
    ids: tuple[str, ...]
    matrix: np.ndarray
    status: np.ndarray
    people: tuple[tuple[str, ...], ...]

    @classmethod
    def from_rows(
        cls, rows: Sequence[dict[str, Any]], *, revision: int, deletions: int, dimension: int
    ) -> UserVectors:
        """From ``mirror_cards`` rows (id, status, embedding, people)."""
        matrix = np.zeros((len(rows), dimension), dtype=np.float32)
        for i, row in enumerate(rows):
            if row["embedding"] is not None:
                matrix[i] = row["embedding"]
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        np.divide(matrix, norms, out=matrix, where=norms > 0)
        status = np.array([_CODES.get(r["status"], NO_VECTOR) for r in rows], dtype=np.int8)
        status[norms[:, 0] == 0] = NO_VECTOR
        return cls(
            revision,
            deletions,
            tuple(r["id"] for r in rows),
            matrix,
            status,
            tuple(tuple(r["people"] or ()) for r in rows),
        )

    def updated(self, rows: Sequence[dict[str, Any]], *, revision: int) -> UserVectors:
        """These vectors with ``rows`` (changed or new cards) applied, at ``revision``."""
        if not rows:
            return replace(self, revision=revision)
        fresh = UserVectors.from_rows(
            rows, revision=revision, deletions=self.deletions, dimension=self.matrix.shape[1]
        )
        where = {card_id: i for i, card_id in enumerate(self.ids)}
        known = [(where[card_id], j) for j, card_id in enumerate(fresh.ids) if card_id in where]
        new = [j for j, card_id in enumerate(fresh.ids) if card_id not in where]
        matrix = np.concatenate([self.matrix, fresh.matrix[new]])
        status = np.concatenate([self.status, fresh.status[new]])
        people = list(self.people) + [fresh.people[j] for j in new]
        for i, j in known:
            matrix[i], status[i], people[i] = fresh.matrix[j], fresh.status[j], fresh.people[j]
        return UserVectors(
            revision,
            self.deletions,
            self.ids + tuple(fresh.ids[j] for j in new),
            matrix,
            status,
            tuple(people),
        )

    @property
    def nbytes(self) -> int:
        return self.matrix.nbytes + self.status.nbytes + 100 * len(self.ids)

    def nearest(
        self,
        vector: Sequence[float] | np.ndarray,
        k: int,
        statuses: Iterable[str],
        only: Collection[str] | None = None,
    ) -> list[Candidate]:
        """The ``k`` cards in ``statuses`` (and among ``only``, when given) most similar to
        ``vector``, best first, ties by id: what ``exact_vector_search`` (or
        ``exact_vector_search_among``) returns from the store."""
        eligible = self._eligible(statuses)
        if only is not None:
            eligible &= np.isin(np.asarray(self.ids, dtype=object), list(only))
        with one_blas_thread():
            scores = self.matrix @ unit(vector)
        return [
            (self.ids[i], score)
            for i, score in best(
                np.flatnonzero(eligible), scores[eligible], k, self.ids.__getitem__
            )
        ]

    def nearest_about(
        self,
        keys: Sequence[str],
        vector: Sequence[float] | np.ndarray,
        k: int,
        statuses: Iterable[str],
    ) -> list[dict[str, Any]]:
        """Cards about the people ``keys``, ranked by cosine: ``person_vector_search``'s
        rows (id, key, score; a card about two of the people comes once per person)."""
        eligible = self._eligible(statuses)
        query = unit(vector)
        hits = []
        for key in dict.fromkeys(keys):
            rows = self.about.get(key)
            if rows is not None:
                rows = rows[eligible[rows]]
                hits += [
                    (self.ids[i], key, score)
                    for i, score in best(rows, self.matrix[rows] @ query, k, self.ids.__getitem__)
                ]
        hits.sort(key=lambda hit: (-hit[2], hit[0], hit[1]))
        return [{"id": card_id, "key": key, "score": score} for card_id, key, score in hits[:k]]

    @cached_property
    def about(self) -> dict[str, np.ndarray]:
        """Rows of the cards about each person key."""
        rows: dict[str, list[int]] = {}
        for i, keys in enumerate(self.people):
            for key in keys:
                rows.setdefault(key, []).append(i)
        return {key: np.array(found, dtype=np.int64) for key, found in rows.items()}

    def _eligible(self, statuses: Iterable[str]) -> np.ndarray:
        codes = [_CODES[s] for s in statuses if s in _CODES]
        return np.isin(self.status, codes)


class VectorMirror:
    """The vectors of the users this process recalls for (see the module docstring).

    ``route(user_id)`` is all recall calls: it says where this recall's vector
    candidates come from, bringing the user's mirror up to date on the way.
    """

    def __init__(
        self, store: GraphStore, dimension: int, *, budget_bytes: int, load_after: int = LOAD_AFTER
    ) -> None:
        self._store = store
        self._dimension = dimension
        self._budget = budget_bytes
        self._load_after = load_after
        self._lock = threading.Lock()
        self._users: OrderedDict[str, UserVectors] = OrderedDict()
        self._recalls: Counter[str] = Counter()
        self._too_big: set[str] = set()
        self._loads = UserJobs(
            self.load,
            name="graphmem-vector-mirror",
            log=log,
            failed="could not mirror the vectors of %s",  # recall uses the store
            level=logging.DEBUG,
        )

    def route(self, user_id: str, state: UserState | None = None) -> VectorRoute:
        """Where this recall of ``user_id`` finds vector candidates (one store lookup,
        none when the caller read ``state``; one more when the user's cards changed since
        the mirror last looked)."""
        state = state or UserState.read(self._store, user_id)
        ann, revision, deletions = state.ann, state.revision, state.deletions
        route = VectorRoute(ann)
        if self._budget <= 0:
            return route
        with self._lock:
            self._recalls[user_id] += 1
            held = self._users.get(user_id)
            if held is not None:
                self._users.move_to_end(user_id)
            wanted = held is None and self._recalls[user_id] >= self._load_after
        if held is None:
            if wanted:
                self._schedule(user_id)
            return route
        if deletions != held.deletions or revision < held.revision:
            self.drop(user_id)
            self._schedule(user_id)
            return route
        if revision > held.revision:
            changed = self._store.run(
                "mirror_cards",
                {"user_id": user_id, "since": held.revision, "after": "", "limit": SYNC_LIMIT + 1},
            )
            if len(changed) > SYNC_LIMIT:
                self._schedule(user_id)
                return route
            held = self._keep(user_id, held, held.updated(changed, revision=revision))
        return VectorRoute(route.ann, held)

    def load(self, user_id: str) -> bool:
        """Bring the user's vectors into the mirror now; False when they do not fit."""
        state = UserState.read(self._store, user_id)
        revision, deletions = state.revision, state.deletions
        with self._lock:
            held = self._users.get(user_id)
        if held is not None and (held.deletions != deletions or held.revision > revision):
            self.drop(user_id)
            held = None
        since = held.revision if held is not None else -1
        changed: list[dict[str, Any]] = []
        after = ""
        while not self._loads.closed.is_set():
            page = self._store.run(
                "mirror_cards", {"user_id": user_id, "since": since, "after": after, "limit": PAGE}
            )
            changed.extend(page)
            held_cards = len(held.ids) if held is not None else 0
            if (held_cards + len(changed)) * self._dimension * 4 > self._budget:
                with self._lock:
                    self._too_big.add(user_id)
                self.drop(user_id)
                return False
            if len(page) < PAGE:
                break
            after = page[-1]["id"]
        if self._loads.closed.is_set():
            return False
        fresh = (
            held.updated(changed, revision=revision)
            if held is not None
            else UserVectors.from_rows(
                changed, revision=revision, deletions=deletions, dimension=self._dimension
            )
        )
        self._keep(user_id, held, fresh)
        return True

    def drop(self, user_id: str) -> None:
        """Forget what the mirror holds of ``user_id`` (after a hard forget: at once)."""
        with self._lock:
            self._users.pop(user_id, None)

    def held(self) -> dict[str, int]:
        """Users mirrored now and how many cards each."""
        with self._lock:
            return {user: len(vectors.ids) for user, vectors in self._users.items()}

    def close(self) -> None:
        """Stop loading (the loader finishes the page it is reading) and let go."""
        self._loads.close(timeout=10)
        with self._lock:
            self._users.clear()

    def _keep(self, user_id: str, before: UserVectors | None, after: UserVectors) -> UserVectors:
        """Store ``after`` unless someone replaced ``before`` meanwhile; evict to budget."""
        with self._lock:
            if self._users.get(user_id) is not before:
                return after
            self._users[user_id] = after
            self._users.move_to_end(user_id)
            total = sum(v.nbytes for v in self._users.values())
            while total > self._budget and len(self._users) > 1:
                _, evicted = self._users.popitem(last=False)
                total -= evicted.nbytes
        return after

    def _schedule(self, user_id: str) -> None:
        with self._lock:
            if user_id in self._too_big:
                return
        self._loads.put(user_id)
