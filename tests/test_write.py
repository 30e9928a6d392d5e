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
