"""Recall's vector mirror answers exactly what the store answers, and never goes stale:
every write, status change and hard delete reaches it through the user's counters."""

from __future__ import annotations

import time

import numpy as np
import pytest

import graphmem.recall.mirror as mirror_module
from graphmem.cards import write_row
from graphmem.models import Card
from graphmem.recall.mirror import NO_VECTOR, UserVectors, VectorMirror
from graphmem.recall.vector import exact_candidates, person_candidates, vector_candidates
from tests.test_vector import DIM, numpy_top, unit_vectors, write_cards

MB = 2**20


def state(memory, user: str) -> dict:
    return memory._store.run("user_vector_state", {"user_id": user})[0]


def loaded(memory, user: str, *, budget: int = 64 * MB) -> VectorMirror:
    mirror = VectorMirror(memory._store, DIM, budget_bytes=budget)
    assert mirror.load(user)
    return mirror


def write_people_cards(memory, user: str) -> dict[str, list[str]]:
    """40 cards about four people, real embeddings; ids by person key."""
    names = ["Alice", "Bob", "Carol", "Dan"]
    cards = [
        Card(user_id=user, fact=f"{name} likes {thing} number {i}", person=name)
        for i in range(10)
        for name in names
        for thing in [("tea", "jazz", "hiking", "chess")[i % 4]]
    ]
    memory.remember_many(cards)
    by_key: dict[str, list[str]] = {}
    for card in cards:
        by_key.setdefault(card.person.lower(), []).append(card.id)
    return by_key


# -- UserVectors: plain data, no store ----------------------------------------------------
def rows(ids, vectors, status="active", people=()):
    return [
        {
            "id": i,
            "status": status,
            "embedding": None if v is None else list(v),
            "people": list(people),
        }
        for i, v in zip(ids, vectors, strict=True)
    ]


def test_nearest_is_cosine_order_with_ties_by_id_and_skips_cards_without_vector():
    held = UserVectors.from_rows(
        rows(["b", "a", "c", "d"], [[1, 0], [1, 0], [0, 1], None]),
        revision=1,
        deletions=0,
        dimension=2,
    )
    assert held.status[3] == NO_VECTOR
    assert held.nearest([2, 0], 3, ["active"]) == [("a", 1.0), ("b", 1.0), ("c", 0.0)]
    assert held.nearest([2, 0], 1, ["superseded"]) == []


def test_updated_replaces_changed_cards_and_appends_new_ones():
    held = UserVectors.from_rows(
        rows(["a", "b"], [[1, 0], [0, 1]]), revision=1, deletions=0, dimension=2
    )
    moved = held.updated(
        rows(["b"], [[1, 0]], status="forgotten") + rows(["c"], [[0.6, 0.8]], people=["alice"]),
        revision=3,
    )
    assert moved.revision == 3
    assert moved.ids == ("a", "b", "c")
    assert moved.nearest([1, 0], 5, ["active"]) == [("a", 1.0), ("c", pytest.approx(0.6))]
    assert [h["id"] for h in moved.nearest_about(["alice"], [0, 1], 5, ["active"])] == ["c"]
    assert held.ids == ("a", "b")  # the old snapshot is untouched


# -- against the store --------------------------------------------------------------------
def test_mirrored_vector_search_equals_the_stores(memory, user):
    vectors = unit_vectors(300, seed=11)
    ids = write_cards(memory._store, user, vectors)
    mirror = loaded(memory, user)
    route = mirror.route(user)
    assert route.mirrored is not None
    assert len(route.mirrored.ids) == 300
    query = unit_vectors(1, seed=12)[0]
    mirrored = vector_candidates(memory._store, user, query, 20, mirrored=route.mirrored)
    stored = exact_candidates(memory._store, user, query, 20)
    assert [i for i, _ in mirrored] == [i for i, _ in stored] == numpy_top(ids, vectors, query, 20)
    assert np.allclose([s for _, s in mirrored], [s for _, s in stored], atol=1e-5)


def test_mirrored_person_search_equals_the_stores(memory, user):
    write_people_cards(memory, user)
    route = loaded(memory, user).route(user)
    query = memory.embedder.embed(["who likes jazz?"])[0]
    for keys in (["alice"], ["bob", "carol"], ["nobody"]):
        mirrored = person_candidates(memory._store, user, keys, query, 7, mirrored=route.mirrored)
        stored = person_candidates(memory._store, user, keys, query, 7)
        assert [(r["id"], r["key"]) for r in mirrored] == [(r["id"], r["key"]) for r in stored]


def test_cards_written_after_loading_reach_the_next_route(memory, user):
    write_cards(memory._store, user, unit_vectors(50, seed=13))
    mirror = loaded(memory, user)
    before = state(memory, user)["revision"]
    newer = unit_vectors(3, seed=14)
    cards = [Card(user_id=user, fact=f"late fact {i}") for i in range(3)]
    memory._store.run(
        "upsert_cards",
        {  # any writer, in any process, bumps the counter
            "user_id": user,
            "rows": [write_row(c, v) for c, v in zip(cards, newer, strict=True)],
            "now": 2,
        },
        write=True,
    )
    assert state(memory, user)["revision"] > before
    held = mirror.route(user).mirrored
    assert held is not None
    assert len(held.ids) == 53
    assert held.nearest(newer[1], 1, ["active"])[0][0] == cards[1].id


def test_resending_the_same_cards_moves_no_counter(memory, user):
    cards = [Card(user_id=user, fact=f"steady fact {i}") for i in range(5)]
    memory.remember_many(cards)
    before = state(memory, user)
    memory.remember_many(cards)
    assert state(memory, user) == before


def test_status_changes_reach_the_mirror(memory, user):
    card = memory.remember({"user_id": user, "fact": "Alice lives in Paris", "person": "Alice"})
    memory.remember({"user_id": user, "fact": "Bob plays chess", "person": "Bob"})
    mirror = loaded(memory, user)
    query = memory.embedder.embed(["where does Alice live?"])[0]
    assert card.id in [i for i, _ in mirror.route(user).mirrored.nearest(query, 5, ["active"])]
    memory.forget(user, card.id)  # soft
    held = mirror.route(user).mirrored
    assert card.id not in [i for i, _ in held.nearest(query, 5, ["active"])]
    assert card.id in [i for i, _ in held.nearest(query, 5, ["active", "forgotten"])]
    memory.restore(user, card.id)
    assert card.id in [i for i, _ in mirror.route(user).mirrored.nearest(query, 5, ["active"])]


def test_a_hard_forget_drops_the_vector_here_at_once_and_elsewhere_at_the_next_recall(memory, user):
    card = memory.remember({"user_id": user, "fact": "my PIN is 4412"})
    memory.remember({"user_id": user, "fact": "I like tea"})
    other_process = loaded(memory, user)
    assert memory.vectors.load(user)
    memory.forget(user, card.id, hard=True)
    assert user not in memory.vectors.held()
    assert other_process.route(user).mirrored is None  # the deletion count moved
    assert user not in other_process.held()
    assert other_process.load(user)
    assert card.id not in other_process.route(user).mirrored.ids


def test_many_changes_go_to_the_store_while_the_mirror_catches_up(memory, user, monkeypatch):
    monkeypatch.setattr(mirror_module, "SYNC_LIMIT", 5)
    write_cards(memory._store, user, unit_vectors(10, seed=15))
    mirror = loaded(memory, user)
    write_cards(memory._store, user + "-x", unit_vectors(1, seed=0))  # another user: no effect
    assert mirror.route(user).mirrored is not None
    cards = [Card(user_id=user, fact=f"burst {i}") for i in range(8)]
    memory._store.run(
        "upsert_cards",
        {
            "user_id": user,
            "now": 3,
            "rows": [write_row(c, v) for c, v in zip(cards, unit_vectors(8, seed=16), strict=True)],
        },
        write=True,
    )
    assert mirror.route(user).mirrored is None  # 8 > 5 changed: this recall asks the store
    deadline = time.monotonic() + 20
    while (held := mirror.route(user).mirrored) is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert held is not None
    assert len(held.ids) == 18
    mirror.close()


def test_repeated_recalls_of_a_user_load_their_vectors(memory, user):
    write_people_cards(memory, user)
    mirror = VectorMirror(memory._store, DIM, budget_bytes=64 * MB, load_after=2)
    assert mirror.route(user).mirrored is None  # one recall: a CLI call never loads
    time.sleep(0.2)
    assert user not in mirror.held()
    mirror.route(user)
    deadline = time.monotonic() + 20
    while user not in mirror.held() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert mirror.held()[user] == 40
    mirror.close()


def test_a_user_loads_in_pages_among_other_users_cards(memory, user, monkeypatch):
    """Pages of one user's vectors hold that user's cards alone, each once."""
    other = user + "-other"
    write_cards(memory._store, other, unit_vectors(30, seed=20))
    ids = write_cards(memory._store, user, unit_vectors(30, seed=21))
    monkeypatch.setattr(mirror_module, "PAGE", 7)
    mirror = loaded(memory, user)
    assert mirror.held() == {user: 30}
    held = mirror.route(user).mirrored
    assert held is not None
    assert sorted(held.ids) == sorted(ids)


def test_a_user_larger_than_the_budget_stays_in_the_store(memory, user):
    write_cards(memory._store, user, unit_vectors(100, seed=17))
    mirror = VectorMirror(memory._store, DIM, budget_bytes=50 * DIM * 4)
    assert not mirror.load(user)
    assert mirror.route(user).mirrored is None
    assert mirror.held() == {}


def test_the_least_recently_recalled_user_is_evicted_first(memory, user):
    first, second = user + "-1", user + "-2"
    write_cards(memory._store, first, unit_vectors(100, seed=18))
    write_cards(memory._store, second, unit_vectors(100, seed=19))
    mirror = VectorMirror(memory._store, DIM, budget_bytes=150 * (DIM * 4 + 101))
    assert mirror.load(first)
    assert mirror.load(second)
    assert list(mirror.held()) == [second]


def same_vectors(kept: UserVectors, fresh: UserVectors) -> bool:
    order = {card_id: i for i, card_id in enumerate(kept.ids)}
    rows = [order[card_id] for card_id in fresh.ids]
    return (
        sorted(kept.ids) == sorted(fresh.ids)
        and kept.status[rows].tolist() == fresh.status.tolist()
        and [kept.people[i] for i in rows] == list(fresh.people)
        and np.allclose(kept.matrix[rows], fresh.matrix, atol=1e-6)
    )


def test_a_mirror_kept_through_every_kind_of_write_equals_a_fresh_load(memory, user):
    from graphmem.export import export_records, import_records

    memory.remember_many(
        [
            {"user_id": user, "fact": "I live in Paris", "timestamp": "2023-01-10T10:00:00Z"},
            {"user_id": user, "fact": "Alice likes jazz", "person": "Alice"},
            {"user_id": user, "fact": "The printer jammed", "timestamp": "2023-01-11"},
        ]
    )
    kept = loaded(memory, user)

    def check(what: str) -> None:
        held = kept.route(user).mirrored
        assert held is not None, what
        assert same_vectors(held, loaded(memory, user).route(user).mirrored), what

    moved_to_berlin = memory.remember_many(
        [{"user_id": user, "fact": "I moved to Berlin", "timestamp": "2024-02-01T10:00:00Z"}]
    )
    assert moved_to_berlin.superseded == 1  # Paris, in the same write
    check("remember, superseding the old city")
    alice = next(c for c in memory.cards(user) if c.person == "Alice")
    memory.remember({**alice.model_dump(), "person": "Bob", "fact": "Bob likes jazz"})
    check("update re-linking the person")
    assert memory.consolidate(user, steps=["forgetting"], capacity=1).forgotten
    check("forgetting")
    moved = user + "-moved"
    import_records(memory, export_records(memory, user, with_embeddings=True), user_id=moved)
    kept_moved = loaded(memory, moved)
    import_records(memory, export_records(memory, user, with_embeddings=True), user_id=moved)
    assert same_vectors(
        kept_moved.route(moved).mirrored, loaded(memory, moved).route(moved).mirrored
    )
    memory.forget(user, alice.id, hard=True)
    assert kept.route(user).mirrored is None
    assert kept.load(user)
    check("hard forget, reloaded")
