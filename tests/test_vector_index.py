"""A running Memory moves a user who outgrows exact search into the HNSW index, and recall
goes through it (the threshold is small here; it is 30,000 cards by default)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from graphmem import Memory
from graphmem.config import Settings
from graphmem.embedding import default_embedder
from graphmem.recall.vector import ANN_THRESHOLD, uses_index
from graphmem.store.base import GraphStore, Row
from graphmem.store.falkordb import FalkorDBStore
from tests.conftest import short_tmpdir

#: above recall's 50 vector candidates: a user with fewer has every card as a candidate
THRESHOLD = 60
PETS = ["cat", "dog", "parrot", "hamster", "rabbit", "tortoise", "goldfish", "ferret"]


class Recorded:
    """The real store, noting the name of each query run: which way recall went."""

    def __init__(self, store: GraphStore) -> None:
        self.inner = store
        self.caps = store.caps
        self.names: list[str] = []

    def run(
        self, name: str, params: Mapping[str, Any] | None = None, *, write: bool = False
    ) -> list[Row]:
        self.names.append(name)
        return self.inner.run(name, params, write=write)

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.inner, attribute)


@pytest.fixture
def home() -> Iterator[Path]:
    path = short_tmpdir()
    yield path
    shutil.rmtree(path, ignore_errors=True)


def facts(user: str, start: int, stop: int) -> list[dict[str, Any]]:
    return [
        {
            "user_id": user,
            "fact": f"Friend number {i} keeps a {PETS[i % len(PETS)]} called Pip{i}",
            "person": f"Friend{i}",
        }
        for i in range(start, stop)
    ]


def in_index(store: Any, user: str) -> int:
    rows = store.execute(
        "MATCH (c:Card {user_id: $user_id}) WHERE c:AnnCard RETURN count(c) AS n",
        {"user_id": user},
    )
    return rows[0]["n"]


def test_settings_carry_the_threshold():
    assert Settings().ann_threshold == ANN_THRESHOLD == 30_000
    assert Settings.from_env({"GRAPHMEM_ANN_THRESHOLD": "60"}).ann_threshold == 60


def test_a_user_who_outgrows_exact_search_is_promoted_and_recalled_through_the_index(home, user):
    store = Recorded(FalkorDBStore.open_embedded(home))
    # A first recall: the vectors are not filled in yet, the store is asked.
    memory = Memory(store, default_embedder(), home=home, ann_threshold=THRESHOLD)
    try:
        memory.remember_many(facts(user, 0, THRESHOLD - 5))
        assert memory.vector_index.wait(timeout=60)
        assert not uses_index(store, user)
        store.names.clear()
        memory.recall(user, "who keeps a parrot called Pip2?", k=3)
        assert "exact_vector_search" in store.names
        assert "vector_search" not in store.names
        assert memory.passages.wait(timeout=60)  # the vectors filled in: ranked in process
        store.names.clear()
        memory.recall(user, "who keeps a parrot called Pip2?", k=3)
        assert not {"exact_vector_search", "vector_search"} & set(store.names)

        memory.remember_many(facts(user, THRESHOLD - 5, THRESHOLD + 5))  # crosses it
        assert memory.vector_index.wait(timeout=60)
        assert uses_index(store, user)
        assert in_index(store, user) == THRESHOLD + 5
        memory.remember({"user_id": user, "fact": "Friend number 99 keeps a llama called Dot"})
        assert in_index(store, user) == THRESHOLD + 6  # later cards join as written

        store.names.clear()
        hits = memory.recall(user, "who keeps a llama called Dot?", k=3)
        assert "vector_search" in store.names
        assert "exact_vector_search" not in store.names
        assert hits[0].card.fact == "Friend number 99 keeps a llama called Dot"
        assert "vector" in hits[0].found_by
    finally:
        memory.close()


def test_consolidation_takes_a_user_who_shrank_out_of_the_index(home, user):
    settings = Settings(home=home, ann_threshold=THRESHOLD)
    with Memory.open(settings=settings) as memory:
        memory.remember_many(facts(user, 0, THRESHOLD))
        assert memory.vector_index.wait(timeout=60)
        assert uses_index(memory._store, user)
    # Past half the threshold a promoted user stays (hysteresis); below it, they leave.
    higher = settings.model_copy(update={"ann_threshold": 2 * THRESHOLD - 2})
    with Memory.open(settings=higher) as memory:
        memory.consolidate(user, steps=("conflicts",))
        assert uses_index(memory._store, user)
    highest = settings.model_copy(update={"ann_threshold": 2 * THRESHOLD + 2})
    with Memory.open(settings=highest) as memory:
        memory.consolidate(user, steps=("conflicts",))
        assert not uses_index(memory._store, user)
        assert in_index(memory._store, user) == 0
