"""Recall's vector channel ranks the vectors its passages hold as the store's exact search
would: the same cards, best first, ties by id; only the user's cards and those the
filters let through; never a card without a vector. Saved and restored (mapped), and
kept current as cards are written."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from graphmem import Memory
from graphmem.cards import write_row
from graphmem.models import Card
from graphmem.recall import passages
from graphmem.recall.passages import PassageIndex, UserPassages
from graphmem.recall.state import UserState
from graphmem.recall.vector import exact_candidates, wire_vector

DIM = 384


def unit_vectors(n: int, seed: int) -> np.ndarray:
    vectors = np.random.default_rng(seed).standard_normal((n, DIM)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def write(memory: Memory, user: str, vectors: np.ndarray, start: int = 0) -> list[str]:
    """One card per vector through the real write query (ids in write order)."""
    cards = [
        Card(user_id=user, fact=f"fact {start + i} of {user}", timestamp=1_700_000_000_000 + i)
        for i in range(len(vectors))
    ]
    rows = [write_row(c, v) for c, v in zip(cards, vectors, strict=True)]
    memory._store.run("upsert_cards", {"user_id": user, "rows": rows, "now": 1}, write=True)
    return [c.id for c in cards]


def held(memory: Memory, user: str, index: PassageIndex) -> UserPassages:
    """The user's passages, their vectors filled in (read afresh, they come without)."""
    state = UserState.read(memory._store, user)
    found = index.current(user, state.revision, state.deletions)
    assert index.wait(timeout=30)
    assert found.vectors_ready
    return found


def every_card(found: UserPassages) -> np.ndarray:
    return found.eligible(["active"])


def test_the_passages_rank_cards_as_the_stores_exact_search(memory: Memory, user: str):
    other = f"{user}-other"
    write(memory, other, unit_vectors(60, seed=1))  # another tenant, closer or not
    ids = write(memory, user, unit_vectors(80, seed=2))
    query = unit_vectors(1, seed=3)[0]
    found = held(memory, user, PassageIndex(memory._store))
    hits = found.nearest(query, 20, every_card(found))
    stored = exact_candidates(memory._store, user, query, 20)
    assert [card for card, _ in hits] == [card for card, _ in stored]
    assert np.allclose([s for _, s in hits], [s for _, s in stored], atol=1e-5)
    assert {card for card, _ in found.nearest(query, 1000, every_card(found))} == set(ids)


def test_a_filter_narrows_the_cards_before_the_top_is_taken(memory: Memory, user: str):
    ids = write(memory, user, unit_vectors(90, seed=4))
    query = unit_vectors(1, seed=5)[0]
    found = held(memory, user, PassageIndex(memory._store))
    allowed = set(ids[::9])  # ten cards: the ones far down the ranking are found too
    mask = found.eligible(["active"], card_ids=allowed)
    hits = found.nearest(query, 20, mask)
    stored = memory._store.run(
        "exact_vector_search_among",
        {"user_id": user, "ids": sorted(allowed), "vector": wire_vector(query), "k": 20},
    )
    assert [card for card, _ in hits] == [
        r["id"] for r in sorted(stored, key=lambda r: (-r["score"], r["id"]))
    ]
    assert {card for card, _ in hits} == allowed


def test_ties_are_ordered_by_card_id(memory: Memory, user: str):
    same = unit_vectors(1, seed=6)
    ids = write(memory, user, np.repeat(same, 12, axis=0))
    found = held(memory, user, PassageIndex(memory._store))
    hits = found.nearest(same[0], 5, every_card(found))
    assert [card for card, _ in hits] == sorted(ids)[:5]


def test_a_card_without_a_vector_is_never_a_candidate(memory: Memory, user: str):
    ids = write(memory, user, np.zeros((3, DIM), dtype=np.float32))  # the first: none
    ids += write(memory, user, unit_vectors(4, seed=7), start=3)
    found = held(memory, user, PassageIndex(memory._store))
    hits = found.nearest(unit_vectors(1, seed=8)[0], 10, every_card(found))
    assert {card for card, _ in hits} == set(ids[3:])


@pytest.mark.parametrize("written_since", [False, True])
def test_restored_vectors_rank_as_read_and_take_cards_written_since(
    memory: Memory, user: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written_since: bool
):
    monkeypatch.setattr(passages, "SAVE_AFTER", 1)
    write(memory, user, unit_vectors(50, seed=9))
    query = unit_vectors(1, seed=10)[0]
    first = PassageIndex(memory._store, directory=tmp_path)
    found = held(memory, user, first)
    read = found.nearest(query, 10, every_card(found))
    assert first.wait(timeout=30)
    first.close()
    new = write(memory, user, query[None, :], start=50) if written_since else []
    again = PassageIndex(memory._store, directory=tmp_path)
    restored = held(memory, user, again)
    assert (again.restored, again.cards_read) == (1, len(new))
    # ids read from the saved keys (ties are named so) are the rows' own
    assert [restored.card_id(i) for i in range(len(restored))] == [
        restored.cards[i].id for i in range(len(restored))
    ]
    hits = restored.nearest(query, 10, every_card(restored))
    if written_since:  # on top of the mapped vectors, which stay as saved
        assert hits[0][0] == new[0]
        assert hits[0][1] == pytest.approx(1.0, abs=1e-5)
        assert hits[1:] == read[:9]
    else:
        assert hits == read
    again.close()
