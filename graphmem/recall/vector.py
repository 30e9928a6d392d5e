"""Vector candidates in the store: the top-k of one user's cards by cosine, tenant-exact.

Recall ranks the vectors its passages hold, in process (``graphmem.recall.cosine``),
once they are read; it searches the store until then, and for a user in the HNSW index.
Two ways to find them in the store, chosen per user:

- **exact** (``exact_vector_search``): cosine over every card of the user, in Cypher.
  Exact and tenant-safe by construction (it only ever reads the user's cards), and needs
  no vector index at all. Linear in the user's cards.
- **ANN** (``vector_search``): the HNSW index, which holds only cards of *promoted* users
  (label ``AnnCard``); several times faster for a large user.

Why not index everyone: FalkorDB rebuilds the HNSW index in memory at every server start,
a few ms a card, so an index over every card makes a large store slow to open. The index
holds no card of a normal user and opening stays fast; only users past ``ANN_THRESHOLD``
cards (where exact search stops meeting p95 <= 50 ms) pay for it. Figures:
docs/design.md, "Figures". ``VectorIndex`` promotes a user once a write takes them past
the threshold, and consolidation demotes one that shrank below half of it
(``maintain_vector_index``).

The index spans all tenants and cannot pre-filter by user: ANN over-fetches (2k, 8k, 32k),
keeps the user's own cards, and falls back to exact search when fewer than k come back.
Either way a user with >= k matching cards gets exactly k candidates, all their own.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, Literal

import numpy as np

from graphmem.recall.jobs import UserJobs
from graphmem.recall.state import Candidate, UserState
from graphmem.store.base import GraphStore, WireVector

log = logging.getLogger(__name__)

#: ``{"as_of": ms, "known_at": ms}``: recall as memory held it then (graphmem.history).
PointInTime = Mapping[str, int]
#: how a user's vector searches run: through the HNSW index, or exact cosine
Route = Literal["ann", "exact"]

#: cards of one user from which exact search misses p95 <= 50 ms (docs/design.md)
ANN_THRESHOLD = 30_000
#: over-fetch factors tried on the shared index before falling back to exact search
OVERFETCH = (2, 8, 32)
#: cards labelled per promote/demote query (keeps FalkorDB's write lock to seconds)
BATCH = 1000


def vector_candidates(
    store: GraphStore,
    user_id: str,
    vector: Sequence[float] | Any,
    k: int,
    *,
    statuses: Iterable[str] = ("active",),
    indexed: bool | None = None,
    at: PointInTime | None = None,
    only: Collection[str] | None = None,
) -> list[Candidate]:
    """The user's ``k`` cards most similar to ``vector``: ``[(card_id, cosine)]``, best first.

    Only the user's own cards, only in ``statuses`` and, when given, among ``only`` (the
    cards that pass recall's filters); fewer than ``k`` only when the user has fewer such
    cards. ``indexed``: ``uses_index`` when the caller looked it up already (recall does,
    while the query is embedded); ``at``: only cards memory may have held then
    (``{"as_of", "known_at"}``, see ``graphmem.history``).
    """
    if k <= 0:
        return []
    statuses = list(statuses)
    vec = wire_vector(vector)
    if only is not None:
        rows = store.run(
            "exact_vector_search_among",
            {"user_id": user_id, "ids": list(only), "vector": vec, "k": int(k)},
        )
        return _ranked(rows)
    if uses_index(store, user_id) if indexed is None else indexed:
        hits = ann_candidates(store, user_id, vec, k, statuses=statuses, at=at)
        if len(hits) >= k:
            return hits[:k]
    return exact_candidates(store, user_id, vec, k, statuses=statuses, at=at)


def exact_candidates(
    store: GraphStore,
    user_id: str,
    vector: Sequence[float] | Any,
    k: int,
    *,
    statuses: Iterable[str] = ("active",),
    at: PointInTime | None = None,
) -> list[Candidate]:
    """Exact cosine top-k over the user's cards (no index involved)."""
    rows = store.run(
        "exact_vector_search",
        {
            "user_id": user_id,
            "vector": wire_vector(vector),
            "k": int(k),
            "statuses": list(statuses),
            "at": at,
        },
    )
    return _ranked(rows)


def person_candidates(
    store: GraphStore,
    user_id: str,
    keys: Sequence[str],
    vector: Sequence[float],
    k: int,
    *,
    statuses: Iterable[str] = ("active",),
    at: PointInTime | None = None,
) -> list[dict[str, Any]]:
    """The cards about the people ``keys``, ranked by cosine to ``vector``: rows of id,
    key (the person the card was found through) and score, best first, ties by id."""
    statuses = list(statuses)
    rows = store.run(
        "person_vector_search",
        {
            "user_id": user_id,
            "keys": list(keys),
            "vector": wire_vector(vector),
            "k": int(k),
            "statuses": statuses,
            "at": at,
        },
    )
    return sorted(
        (r for r in rows if r["score"] is not None), key=lambda r: (-r["score"], r["id"], r["key"])
    )


def ann_candidates(
    store: GraphStore,
    user_id: str,
    vector: Sequence[float] | Any,
    k: int,
    *,
    statuses: Iterable[str] = ("active",),
    at: PointInTime | None = None,
) -> list[Candidate]:
    """Approximate top-k from the shared HNSW index, over-fetching to find the user's own.

    May return fewer than ``k`` (the user is a small share of the index, or not promoted):
    ``vector_candidates`` then falls back to exact search.
    """
    params = {
        "user_id": user_id,
        "vector": wire_vector(vector),
        "statuses": list(statuses),
        "at": at,
    }
    hits: list[Candidate] = []
    for factor in OVERFETCH:
        hits = _ranked(store.run("vector_search", {**params, "k": int(k) * factor}))
        if len(hits) >= k:
            break
    return hits


def uses_index(store: GraphStore, user_id: str) -> bool:
    """Is this user's vector search routed through the HNSW index (promoted)?"""
    return UserState.read(store, user_id).ann


def user_card_count(store: GraphStore, user_id: str) -> int:
    """How many cards the user has, every status."""
    rows = store.run("user_card_count", {"user_id": user_id})
    return int(rows[0]["cards"]) if rows else 0


def promote(
    store: GraphStore, user_id: str, *, batch: int = BATCH, stop: threading.Event | None = None
) -> int:
    """Index all the user's cards, then route their vector searches through the index;
    returns cards labelled.

    Idempotent and resumable: on a promoted user it labels only cards without the label;
    stopped (``stop`` set) between batches, the user stays on exact search and the next
    call carries on where this one stopped.
    """
    return _repeat(store, "promote_ann", "labelled", user_id, batch, stop=stop)


def demote(store: GraphStore, user_id: str, *, batch: int = BATCH) -> int:
    """Route the user back to exact search and take their cards out of the index."""
    return _repeat(store, "demote_ann", "unlabelled", user_id, batch)


def maintain_vector_index(
    store: GraphStore,
    user_id: str,
    *,
    threshold: int = ANN_THRESHOLD,
    stop: threading.Event | None = None,
) -> Route:
    """Promote a user at ``threshold`` cards, demote below half of it; returns the route.

    Promoting costs an HNSW insertion a card on FalkorDB (docs/design.md has figures),
    done in batches of ``BATCH``; ``stop`` ends it between batches.

    Returns ``"ann"`` or ``"exact"``: how the user's vector searches run from now on.
    """
    cards = user_card_count(store, user_id)
    promoted = uses_index(store, user_id)
    if cards >= threshold or (promoted and cards >= threshold // 2):
        promote(store, user_id, stop=stop)
        return "ann" if uses_index(store, user_id) else "exact"
    if promoted:
        demote(store, user_id)
    return "exact"


class VectorIndex:
    """Which users the HNSW index holds, kept in step with their size in a running
    ``Memory``.

    After a write job, ``written`` looks at each user who gained cards (one lookup of the
    user's counters; one count more for a user not yet in the index) and promotes a user
    who reached ``threshold`` on a background thread: promoting a large user takes
    minutes on FalkorDB, which no ``remember`` should wait for. Searches stay exact and
    complete until the promotion is done (``promote_ann``); ``close`` stops it between
    batches and the next write or consolidation of the user resumes it. ``maintain``
    (consolidation) also demotes a user who shrank below half the threshold.
    """

    def __init__(self, store: GraphStore, threshold: int = ANN_THRESHOLD) -> None:
        self.store = store
        self.threshold = threshold
        self._promotions = UserJobs(
            self.maintain,
            name="graphmem-vector-index",
            log=log,
            failed="could not promote %s into the vector index",  # the next write retries
        )

    def written(self, user_ids: Iterable[str]) -> None:
        """Cards were added for ``user_ids``: promote those who reached the threshold."""
        for user_id in user_ids:
            if not uses_index(self.store, user_id) and (
                user_card_count(self.store, user_id) >= self.threshold
            ):
                self._promotions.put(user_id)

    def maintain(self, user_id: str) -> Route:
        """Promote or demote ``user_id`` now (hysteresis as ``maintain_vector_index``)."""
        return maintain_vector_index(
            self.store, user_id, threshold=self.threshold, stop=self._promotions.closed
        )

    def wait(self, timeout: float | None = None) -> bool:
        """Block until no promotion is queued or running; False on timeout."""
        return self._promotions.wait(timeout)

    def close(self) -> None:
        """Stop promoting (the batch being labelled finishes) and let go."""
        self._promotions.close(timeout=30)


def _repeat(
    store: GraphStore,
    query: str,
    column: str,
    user_id: str,
    batch: int,
    *,
    stop: threading.Event | None = None,
) -> int:
    total = 0
    while stop is None or not stop.is_set():
        rows = store.run(query, {"user_id": user_id, "limit": int(batch)}, write=True)
        done = int(rows[0][column]) if rows else 0
        total += done
        if done < batch:
            break
    return total


def _ranked(rows: list[dict[str, Any]]) -> list[Candidate]:
    """Rows of id/score as (id, cosine), best first, ties by id (both backends agree);
    rows without a score (a card without embedding) are dropped."""
    return sorted(
        ((row["id"], float(row["score"])) for row in rows if row["score"] is not None),
        key=lambda hit: (-hit[1], hit[0]),
    )


def wire_vector(vector: Sequence[float] | Any) -> WireVector:
    """A vector as the plain floats sent to the store, rounded to 8 decimals.

    The store keeps float32 and FalkorDB takes parameters as text: 8 decimals move a
    unit vector's cosines by < 1e-7 and halve the text of a write (17 digits -> ~10).

    Examples:
        >>> wire_vector((1, 0.123456789012))
        [1.0, 0.12345679]
    """
    return WireVector(np.round(np.asarray(vector, dtype=np.float64), 8).tolist())
