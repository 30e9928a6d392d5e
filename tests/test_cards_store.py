"""Writing and reading cards on a real store (every backend)."""

import pytest

from graphmem import Card, ConflictError, Memory, NotFoundError, Status, ValidationError


def alice_card(user: str, **extra) -> dict:
    return {
        "user_id": user,
        "fact": "Alice is allergic to peanuts",
        "backstory": "mentioned while planning a birthday dinner",
        "person": "Alice",
        "relationship": "sister",
        "timestamp": "2024-03-20T10:15:00Z",
        "source": {
            "session_id": "s1",
            "turn": 4,
            "speaker": "user",
            "text": "My sister Alice is allergic to peanuts, so no satay.",
            "span": [0, 38],
            "session_date": "2024-03-20",
        },
        **extra,
    }


def test_round_trip_keeps_every_field(memory: Memory, user: str):
    stored = memory.remember(alice_card(user, tags=["Food", "health"], importance=0.9))
    again = memory.get(user, stored.id)
    assert again == stored
    assert (again.fact, again.person, again.relationship) == (
        "Alice is allergic to peanuts",
        "Alice",
        "sister",
    )
    assert again.timestamp == 1_710_929_700_000
    assert again.tags == ["food", "health"]
    assert again.version == 1
    assert again.source is not None
    assert again.source.session_id == "s1"
    assert again.source.span == (0, 38)
    assert again.source.text[slice(*again.source.span)] == "My sister Alice is allergic to peanuts"


def test_same_content_twice_is_one_card(memory: Memory, user: str):
    first = memory.remember_many([alice_card(user)] * 3)
    second = memory.remember_many([alice_card(user)])
    assert (first.created, second.created, second.unchanged) == (1, 0, 1)
    assert memory.count(user) == {"active": 1}


def test_one_invalid_card_means_nothing_is_written(memory: Memory, user: str):
    good = alice_card(user)
    bad = {"user_id": user, "fact": "x", "timestamp": "yesterday-ish"}
    with pytest.raises(ValidationError, match=r"cards\[1\]\.timestamp"):
        memory.remember_many([good, bad])
    assert memory.count(user) == {}


def test_updates_need_the_current_version(memory: Memory, user: str):
    card = memory.remember(alice_card(user, id="alice-allergy"))
    changed = card.model_copy(update={"fact": "Alice is allergic to peanuts and shellfish"})
    updated = memory.remember(changed)
    assert (updated.version, updated.fact) == (2, "Alice is allergic to peanuts and shellfish")
    stale = card.model_copy(update={"fact": "Alice is not allergic"})
    with pytest.raises(ConflictError, match="version 2"):
        memory.remember(stale)
    assert memory.get(user, "alice-allergy").fact.endswith("shellfish")


def test_a_stale_version_anywhere_in_a_job_stops_it_before_anything_is_written(
    memory: Memory, user: str
):
    card = memory.remember(alice_card(user, id="alice-allergy"))
    memory.remember(card.model_copy(update={"fact": "Alice is allergic to cashews"}))
    stale = card.model_copy(update={"fact": "Alice is not allergic"})  # still at version 1
    new = [{"user_id": user, "fact": f"fact {i}"} for i in range(300)]
    with pytest.raises(ConflictError, match="version 2"):
        memory.remember_many([*new, stale], batch_size=100)
    assert memory.count(user) == {"active": 1}


def test_a_new_card_cannot_overwrite_an_existing_id(memory: Memory, user: str):
    memory.remember(alice_card(user, id="fixed"))
    with pytest.raises(ConflictError):
        memory.remember(alice_card(user, id="fixed", fact="Something else entirely"))


def test_soft_forget_and_restore(memory: Memory, user: str):
    card = memory.remember(alice_card(user))
    memory.forget(user, card.id)
    assert memory.get(user, card.id).status == Status.FORGOTTEN
    assert memory.cards(user) == []
    restored = memory.restore(user, card.id)
    assert restored.status == Status.ACTIVE
    assert [c.id for c in memory.cards(user)] == [card.id]


def test_hard_forget_removes_node_text_and_vector(memory: Memory, user: str):
    card = memory.remember(alice_card(user))
    other = memory.remember(
        alice_card(
            user,
            fact="Alice dislikes satay",
            source={**alice_card(user)["source"], "span": [40, 52]},
        )
    )
    memory.forget(user, card.id, hard=True)
    with pytest.raises(NotFoundError):
        memory.get(user, card.id)
    rows = memory._store.run("get_cards", {"user_id": user, "ids": [card.id]})
    assert rows == []
    # The source turn is still cited by the other card: the forgotten evidence is masked.
    kept = memory.get(user, other.id)
    assert "allergic" not in kept.source.text
    assert kept.source.text.endswith("so no satay.")


def test_users_never_see_each_other(memory: Memory, user: str):
    other_user = user + "-other"
    mine = memory.remember(alice_card(user))
    theirs = memory.remember(alice_card(other_user, fact="Alice hates peanuts"))
    assert [c.id for c in memory.cards(user)] == [mine.id]
    with pytest.raises(NotFoundError):
        memory.get(user, theirs.id)
    with pytest.raises(NotFoundError):
        memory.forget(user, theirs.id, hard=True)
    assert memory.get(other_user, theirs.id).fact == "Alice hates peanuts"


def test_cards_of_a_user_newest_first(memory: Memory, user: str):
    memory.remember_many(
        [
            Card(user_id=user, fact=f"fact {i}", timestamp=1_700_000_000_000 + i * 1000)
            for i in range(5)
        ]
    )
    assert [c.fact for c in memory.cards(user, limit=3)] == ["fact 4", "fact 3", "fact 2"]


def test_a_batch_mixing_cards_with_and_without_sources_keeps_every_source(
    memory: Memory, user: str
):
    """Regression: a card without a source later in a batch erased earlier provenance."""
    memory.remember_many(
        [
            {"user_id": user, "fact": "B", "source": {"session_id": "s1", "turn": 1, "text": "B"}},
            {"user_id": user, "fact": "A"},
            {
                "user_id": user,
                "fact": "C",
                "person": "Carol",
                "relationship": "friend",
                "source": {"session_id": "s2", "turn": 0, "text": "C"},
            },
            {"user_id": user, "fact": "D", "person": "Carol"},
        ]
    )
    sessions = {c.fact: c.source.session_id if c.source else None for c in memory.cards(user)}
    assert sessions == {"A": None, "B": "s1", "C": "s2", "D": None}


def test_a_name_that_would_crash_the_store_is_refused_and_the_store_lives(memory, user):
    """FalkorDB 4.16 dies on a uniquely constrained string holding \\x01: names refuse it."""
    with pytest.raises(ValidationError) as info:
        memory.remember({"user_id": user, "fact": "likes tea", "person": "\x01Mallory"})
    assert info.value.field == "person"
    with pytest.raises(ValidationError) as info:
        memory.save_people(user, [], [("Ali\x01ce", "Alice", "turn 1")])
    assert info.value.field == "candidates[0]"
    assert memory.remember({"user_id": user, "fact": "still here"}).fact == "still here"
