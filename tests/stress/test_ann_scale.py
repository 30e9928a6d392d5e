"""A 35,000-card user in a running Memory, at the default threshold (30,000): the write
that takes them past it promotes them into the HNSW index, and recall goes through it.
tests/test_vector_index.py checks the same with a small threshold in every `make test`."""

from __future__ import annotations

import shutil
import time
from typing import Any

import pytest

from graphmem import Memory
from graphmem.config import Settings
from graphmem.embedding import default_embedder
from graphmem.recall.vector import (
    ANN_THRESHOLD,
    ann_candidates,
    exact_candidates,
    user_card_count,
    uses_index,
)
from graphmem.store.falkordb import FalkorDBStore
from tests.conftest import short_tmpdir
from tests.test_vector_index import Recorded

pytestmark = pytest.mark.stress
CARDS = 35_000
HOBBIES = ["chess", "rowing", "pottery", "salsa", "birding", "climbing", "baking", "origami"]


@pytest.fixture(autouse=True)
def only_when_asked(request: pytest.FixtureRequest) -> None:
    if "stress" not in (request.config.option.markexpr or ""):
        pytest.skip("stress run: use `make stress` (pytest -m stress tests/stress)")


def facts(start: int, stop: int) -> list[dict[str, Any]]:
    return [
        {
            "user_id": "big",
            "fact": f"Club member {i} took up {HOBBIES[i % len(HOBBIES)]} in week {i % 52}",
            "person": f"Member{i}",
        }
        for i in range(start, stop)
    ]


def test_a_35000_card_user_is_promoted_and_recalled_through_the_index():
    home = short_tmpdir()
    try:
        assert Settings().ann_threshold == ANN_THRESHOLD == 30_000
        store = Recorded(FalkorDBStore.open_embedded(home))
        # The route a recall takes shows in the queries it makes.
        memory = Memory(store, default_embedder(), home=home)
        try:
            started = time.perf_counter()
            memory.remember_many(facts(0, CARDS - 10), batch_size=512)
            assert memory.vector_index.wait(timeout=600)
            assert uses_index(store, "big")  # past 30,000 after the first 30,000 written
            memory.remember_many(facts(CARDS - 10, CARDS))
            assert user_card_count(store, "big") == CARDS
            labelled = store.execute(
                "MATCH (c:Card {user_id: 'big'}) WHERE c:AnnCard RETURN count(c) AS n"
            )[0]["n"]
            assert labelled == CARDS
            print(f"\n35,000 cards written and promoted in {time.perf_counter() - started:.0f} s")

            store.names.clear()
            asked = time.perf_counter()
            hits = memory.recall("big", "who took up origami in week 5?", k=5)
            print(f"recall through the index: {1000 * (time.perf_counter() - asked):.0f} ms")
            assert "vector_search" in store.names
            assert "exact_vector_search" not in store.names
            assert hits
            for hit in hits:
                print(f"  {hit.relevance:.2f} {hit.card.fact} {hit.found_by}")
            # The index finds what exact search finds first, among the user's 35,000 cards.
            query = memory.embedder.embed(["Club member 3103 took up origami in week 35"])[0]
            ann = ann_candidates(store, "big", query, 10)
            exact = exact_candidates(store, "big", query, 10)
            assert ann[0][0] == exact[0][0]
            assert (
                memory.get("big", ann[0][0]).fact == "Club member 3103 took up origami in week 35"
            )
        finally:
            memory.close()
    finally:
        shutil.rmtree(home, ignore_errors=True)
