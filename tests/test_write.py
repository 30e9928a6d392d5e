"""The write path understands changes as it writes: supersede, flag, pass a role on."""

from __future__ import annotations

import pytest

from graphmem import ConflictError, Memory, Status
from graphmem.consolidation import decisions


def card(user: str, fact: str, when: str, **extra: object) -> dict[str, object]:
    return {"user_id": user, "fact": fact, "timestamp": when, **extra}


def by_fact(memory: Memory, user: str):
    return {c.fact: c for c in memory.cards(user, status=None)}


def test_a_new_manager_supersedes_the_old_one_and_takes_the_role(memory: Memory, user: str):
    memory.remember(
        card(user, "Tom is my manager", "2025-01-10", person="Tom", relationship="manager")
    )
    result = memory.remember_many(
        [card(user, "My new manager is Priya", "2025-07-01", person="Priya", relationship="boss")]
    )
    cards = by_fact(memory, user)

    assert result.superseded == 1
    assert cards["Tom is my manager"].status == Status.SUPERSEDED
    [edge] = decisions(memory._store, user)
    assert (edge["attribute"], edge["decided_by"]) == ("my manager", "rules")
    assert edge["reason"] == (
        "newer value replaces older: my manager of the user: 'tom' (2025-01-10) vs 'priya' "
        "(2025-07-01)"
    )
    people = {p.name: (p.relationship, p.relationship_history) for p in memory.people(user)}
    assert people["Priya"] == ("boss", [])
    assert people["Tom"] == ("former manager", ["manager"])
    [top] = memory.recall(user, "who is my manager?", k=1)
    assert top.card.fact == "My new manager is Priya"


def test_older_history_imported_later_lands_superseded(memory: Memory, user: str):
    memory.remember(card(user, "I moved to Berlin", "2024-05-01"))
    result = memory.remember_many([card(user, "I live in Paris", "2023-01-01")])
    cards = by_fact(memory, user)

    assert (result.created, result.superseded) == (1, 1)
    assert cards["I live in Paris"].status == Status.SUPERSEDED
    assert cards["I moved to Berlin"].status == Status.ACTIVE


def test_a_change_said_in_the_same_conversation_is_an_update_not_a_contradiction(
    memory: Memory, user: str
):
    memory.remember_many(
        [
            card(user, "I live in Paris", "2024-03-01T10:00:00Z"),
            card(user, "Actually I moved to Lyon last spring", "2024-03-01T10:05:00Z"),
        ]
    )
    cards = by_fact(memory, user)

    assert cards["I live in Paris"].status == Status.SUPERSEDED
    [edge] = decisions(memory._store, user)
    assert edge["reason"].startswith("said to have changed: location of me")


def test_resending_the_same_cards_changes_nothing(memory: Memory, user: str):
    cards = [
        card(user, "I live in Paris", "2023-01-01"),
        card(user, "I moved to Berlin", "2024-05-01"),
    ]
    memory.remember_many(cards)
    again = memory.remember_many(cards)

    assert (again.created, again.unchanged, again.superseded) == (0, 2, 0)
    assert len(decisions(memory._store, user)) == 1


def test_a_negation_only_conflicts_with_what_it_negates(memory: Memory, user: str):
    memory.remember_many(
        [
            card(user, "Greg is my manager", "2024-01-01", person="Greg"),
            card(user, "Fatima is my manager", "2025-01-01", person="Fatima"),
            card(user, "Greg isn't my manager anymore", "2025-01-01T00:10:00Z", person="Greg"),
        ]
    )
    cards = by_fact(memory, user)

    assert cards["Greg is my manager"].status == Status.SUPERSEDED
    assert cards["Fatima is my manager"].status == Status.ACTIVE
    assert cards["Greg isn't my manager anymore"].status == Status.ACTIVE


def test_changed_cards_are_updated_together_and_a_stale_one_is_named(memory: Memory, user: str):
    memory.remember_many([card(user, "Alice likes tea", "2024-01-01", person="Alice")])
    memory.remember_many([card(user, "Bob likes jazz", "2024-01-02", person="Bob")])
    alice, bob = (c for c in sorted(memory.cards(user), key=lambda c: c.fact))
    result = memory.remember_many(
        [
            {**alice.model_dump(), "fact": "Alice likes green tea"},
            {**bob.model_dump(), "fact": "Bob likes cool jazz"},
        ]
    )

    assert result.updated == 2
    assert sorted(c.fact for c in memory.cards(user)) == [
        "Alice likes green tea",
        "Bob likes cool jazz",
    ]
    with pytest.raises(ConflictError, match=alice.id):
        memory.remember({**alice.model_dump(), "fact": "Alice likes black tea"})


# -- concurrent repeats (issue 31, point 8) ----------------------------------------------
def stated(user: str, writer: int, round_: int) -> dict[str, object]:
    """Round ``round_``'s new fact, as writer ``writer`` says it (its own source)."""
    fact = f"Zed keeps {round_ + 2} hives on the roof"
    return card(
        user,
        fact,
        f"2024-05-{round_ + 1:02d}T10:00:0{writer}Z",
        person="Zed",
        source={"session_id": f"w{writer}", "turn": round_, "speaker": "user", "text": fact},
    )


def test_writers_saying_a_new_fact_at_once_all_count(memory: Memory, user: str):
    """4 writers say each new fact at the same moment: one creates it, the others are
    repeats of it (seen_count, source linked), never four 'created' and a count of 1."""
    import threading

    writers, rounds = 4, 8
    barrier = threading.Barrier(writers)
    results: list[tuple[int, int]] = []

    def write(writer: int) -> None:
        for round_ in range(rounds):
            barrier.wait(timeout=120)
            done = memory.remember_many([stated(user, writer, round_)])
            results.append((done.created, done.seen_again))

    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    cards = memory.cards(user, status=None)

    assert len(results) == writers * rounds
    assert sum(created for created, _ in results) == len(cards) == rounds
    assert sum(seen for _, seen in results) == (writers - 1) * rounds
    assert [c.seen_count for c in cards] == [writers] * rounds
    for stored in cards:
        sources = memory.provenance(user, stored.id).sources
        assert sorted(s.session_id for s in sources) == [f"w{w}" for w in range(writers)]


def test_a_card_stored_between_plan_and_write_is_counted_as_a_repeat(memory: Memory, user: str):
    """What the writer that loses the race runs: the upsert of a card it planned as new,
    which another writer stored meanwhile. Deterministic: the query is run directly."""
    from graphmem.cards import write_row
    from graphmem.models import Card

    memory.remember(stated(user, 0, 0))
    late = Card.parse(stated(user, 1, 0))
    again = Card.parse(stated(user, 0, 0))
    vector = memory._writer.embedder.embed([late.embedding_text])[0]

    def upsert(planned: Card) -> str:
        row = write_row(planned, vector)
        row["props"] |= {"claim": "", "claim_value": ""}
        [out] = memory._store.run(
            "upsert_cards", {"user_id": user, "rows": [row], "now": 1}, write=True
        )
        return out["outcome"]

    assert upsert(late) == "seen"
    assert upsert(late) == "unchanged"  # its source is linked now, its time not later
    assert upsert(again) == "unchanged"  # an exact copy
    [stored] = memory.cards(user)
    assert (stored.seen_count, stored.last_seen) == (2, late.timestamp)
    sources = memory.provenance(user, stored.id).sources
    assert sorted(s.session_id for s in sources) == ["w0", "w1"]
    # Other content under an id the caller chose: not a repeat, the writer is told.
    other = Card.parse({"user_id": user, "id": stored.id, "fact": "Zed sold the hives"})
    assert upsert(other) == "stale"
    assert memory.get(user, stored.id).fact == stored.fact
