"""Vector candidates are the user's own cards only, exactly k of them, by cosine."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.cards import write_row
from graphmem.models import Card
from graphmem.recall.vector import (
    ann_candidates,
    exact_candidates,
    maintain_vector_index,
    promote,
    user_card_count,
    uses_index,
    vector_candidates,
)

DIM = 384


def unit_vectors(n: int, seed: int) -> np.ndarray:
    vectors = np.random.default_rng(seed).standard_normal((n, DIM)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def write_cards(store, user_id: str, vectors: np.ndarray) -> list[str]:
    """Store one synthetic card per vector through the real write query; return ids."""
    cards = [Card(user_id=user_id, fact=f"fact {i} of {user_id}") for i in range(len(vectors))]
    for start in range(0, len(cards), 1000):
        rows = [
            write_row(c, v)
            for c, v in zip(cards[start : start + 1000], vectors[start : start + 1000], strict=True)
        ]
        store.run("upsert_cards", {"user_id": user_id, "rows": rows, "now": 1}, write=True)
    return [c.id for c in cards]


def numpy_top(ids: list[str], vectors: np.ndarray, query: np.ndarray, k: int) -> list[str]:
    scores = vectors @ query
    return [ids[i] for i in np.argsort(-scores, kind="stable")[:k]]


@pytest.fixture(scope="module")
def crowd(memory) -> list[str]:
    """3000 cards of 30 other users in the same store, none of them promoted."""
    vectors = unit_vectors(3000, seed=1)
    users = [f"crowd-{memory._store.caps.dialect}-{i}" for i in range(30)]
    for i, user in enumerate(users):
        write_cards(memory._store, user, vectors[i * 100 : (i + 1) * 100])
    return users


def test_a_small_user_among_thousands_gets_exactly_k_of_their_own(memory, crowd, user):
    vectors = unit_vectors(30, seed=2)
    ids = write_cards(memory._store, user, vectors)
    query = unit_vectors(1, seed=3)[0]
    hits = vector_candidates(memory._store, user, query, 20)
    assert [card_id for card_id, _ in hits] == numpy_top(ids, vectors, query, 20)
    scores = np.array([score for _, score in hits])
    assert np.allclose(scores, np.sort(vectors @ query)[::-1][:20], atol=1e-5)
    assert not uses_index(memory._store, user)  # 30 cards: exact search, no index involved


def test_fewer_cards_than_k_gives_all_of_them(memory, crowd, user):
    ids = write_cards(memory._store, user, unit_vectors(5, seed=4))
    hits = vector_candidates(memory._store, user, unit_vectors(1, seed=5)[0], 20)
    assert sorted(card_id for card_id, _ in hits) == sorted(ids)
    assert (
        vector_candidates(
            memory._store, user, unit_vectors(1, seed=5)[0], 20, statuses=("forgotten",)
        )
        == []
    )


def test_cards_without_a_vector_are_skipped_not_counted(memory, crowd, user):
    vectors = unit_vectors(6, seed=6)
    ids = write_cards(memory._store, user, vectors)
    memory._store.execute(
        "MATCH (c:Card {user_id: $user_id}) WHERE c.id IN $ids SET c.embedding = null",
        {"user_id": user, "ids": ids[:2]},
        write=True,
    )  # e.g. imported without vectors
    query = unit_vectors(1, seed=7)[0]
    hits = vector_candidates(memory._store, user, query, 3)
    assert [card_id for card_id, _ in hits] == numpy_top(ids[2:], vectors[2:], query, 3)
    assert len(vector_candidates(memory._store, user, query, 20)) == 4


def test_exact_and_ann_agree_on_the_top_hit_of_a_promoted_user(memory, crowd, user):
    big = f"big-{user}"
    write_cards(memory._store, big, unit_vectors(600, seed=6))
    vectors = unit_vectors(30, seed=7)
    ids = write_cards(memory._store, user, vectors)
    assert promote(memory._store, big) == 600
    assert promote(memory._store, user) == 30
    assert promote(memory._store, user) == 0  # idempotent
    assert uses_index(memory._store, user)
    for i in (0, 11, 29):  # a query near one card of the user finds it first, both ways
        query = vectors[i] + 0.05 * unit_vectors(1, seed=100 + i)[0]
        exact = exact_candidates(memory._store, user, query, 10)
        ann = ann_candidates(memory._store, user, query, 10)
        assert exact[0][0] == ann[0][0] == ids[i]
        assert ann[0][1] == pytest.approx(exact[0][1], abs=1e-5)
        hits = vector_candidates(memory._store, user, query, 20)
        assert len(hits) == 20
        assert {card_id for card_id, _ in hits} <= set(ids)


def test_a_promoted_user_with_few_matches_falls_back_to_exact(memory, crowd, user):
    ids = write_cards(memory._store, user, unit_vectors(30, seed=8))
    promote(memory._store, user)
    memory.forget(user, ids[3])
    memory.forget(user, ids[7])
    hits = vector_candidates(
        memory._store, user, unit_vectors(1, seed=9)[0], 20, statuses=("forgotten",)
    )
    assert sorted(card_id for card_id, _ in hits) == sorted([ids[3], ids[7]])


def test_maintenance_promotes_past_the_threshold_and_demotes_below_half(memory, user):
    write_cards(memory._store, user, unit_vectors(30, seed=10))
    assert user_card_count(memory._store, user) == 30
    assert maintain_vector_index(memory._store, user, threshold=100) == "exact"
    assert maintain_vector_index(memory._store, user, threshold=25) == "ann"
    assert annotated(memory, user) == 30
    more = Card(user_id=user, fact="written after the promotion")
    memory._store.run(
        "upsert_cards",
        {"user_id": user, "rows": [write_row(more, unit_vectors(1, seed=11)[0])], "now": 1},
        write=True,
    )
    assert maintain_vector_index(memory._store, user, threshold=25) == "ann"
    assert annotated(memory, user) == 31  # new cards join the index
    assert maintain_vector_index(memory._store, user, threshold=50) == "ann"  # hysteresis
    assert maintain_vector_index(memory._store, user, threshold=100) == "exact"
    assert annotated(memory, user) == 0
    assert not uses_index(memory._store, user)


def annotated(memory, user: str) -> int:
    """Cards of the user in the vector index (label AnnCard)."""
    rows = memory._store.execute(
        "MATCH (c:Card {user_id: $user_id}) WHERE c:AnnCard RETURN count(c) AS n", {"user_id": user}
    )
    return rows[0]["n"]


def test_cards_written_after_promotion_join_the_index(memory, crowd, user):
    vectors = unit_vectors(31, seed=7)
    write_cards(memory._store, user, vectors[:30])
    promote(memory._store, user)
    memory.remember({"user_id": user, "fact": "a card written after the promotion"})
    assert user_card_count(memory._store, user) == 31
    query = memory.embedder.embed(["a card written after the promotion"])[0]
    hits = ann_candidates(memory._store, user, query, 1)
    assert memory.get(user, hits[0][0]).fact == "a card written after the promotion"
