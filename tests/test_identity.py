"""A card's identity: the same fact about the same person and relationship is one card,
whenever and however often it is stated (issue 19, point 1), and stores written when
the time was part of the id are migrated to that."""

from __future__ import annotations

from pathlib import Path

from graphmem import Card, Memory
from graphmem.store.migrations import key_cards_by_identity


def said(user: str, session: str, when: str, **extra) -> dict:
    return {
        "user_id": user,
        "fact": "Bob plays chess on Sundays",
        "person": "Bob",
        "relationship": "brother",
        "timestamp": when,
        "source": {"session_id": session, "turn": 0, "speaker": "user", "text": "Bob plays chess"},
        **extra,
    }


def test_remembering_a_fact_twice_without_a_time_is_one_card_seen_twice(memory: Memory, user: str):
    first = memory.remember({"user_id": user, "fact": "I like green tea"})
    second = memory.remember({"user_id": user, "fact": "I like green tea"})

    assert second.id == first.id
    assert memory.count(user) == {"active": 1}
    assert (second.seen_count, second.access_count) == (2, 1)
    assert second.timestamp == first.timestamp  # when it was first said stays
    assert second.last_seen is not None
    assert second.last_seen > first.last_seen  # type: ignore[operator]
    assert second.version == first.version  # not a content change


def test_with_a_time_or_without_it_is_the_same_card(memory: Memory, user: str):
    dated = memory.remember(
        {"user_id": user, "fact": "I like green tea", "timestamp": "2024-01-01", "backstory": "x"}
    )
    undated = memory.remember({"user_id": user, "fact": "I like green tea"})
    assert undated.id == dated.id
    assert Card(user_id=user, fact="I like green tea").id == dated.id


def test_another_person_or_relationship_is_another_card(memory: Memory, user: str):
    ids = {
        memory.remember({"user_id": user, "fact": "likes chess", "person": p, "relationship": r}).id
        for p, r in (("Bob", "brother"), ("bob", "brother"), ("Bob", "friend"), ("Eve", "friend"))
    }
    assert len(ids) == 3  # the person's name is case-insensitive


def test_a_fact_said_in_three_sessions_is_one_card_with_three_sources(memory: Memory, user: str):
    statements = [said(user, f"s{day}", f"2024-01-0{day}") for day in (3, 1, 2)]
    result = memory.remember_many(statements)
    assert (result.created, result.seen_again, len(set(result.ids))) == (1, 2, 1)

    card = memory.get(user, result.ids[0])
    assert card.timestamp == Card(**said(user, "s1", "2024-01-01")).timestamp  # first said
    assert card.source is not None
    assert card.source.session_id == "s1"
    assert (card.last_seen, card.seen_count) == (
        Card(**said(user, "s3", "2024-01-03")).timestamp,
        3,
    )
    assert sorted(s.session_id for s in memory.provenance(user, card.id).sources) == [
        "s1",
        "s2",
        "s3",
    ]

    again = memory.remember_many(statements)  # re-ingesting the same data changes nothing
    assert (again.created, again.seen_again, again.unchanged) == (0, 0, 3)
    assert memory.get(user, card.id).seen_count == 3


def test_an_older_id_scheme_is_migrated_and_its_repeats_folded(home: Path):
    user = "ada"
    with Memory.open(home) as memory:
        # As graphmem stored them when the time was part of the id: one card per statement.
        old = memory.remember_many(
            [
                said(user, "s1", "2024-01-01", id="old-first"),
                said(user, "s2", "2024-02-01", id="old-second"),
                {"user_id": user, "fact": "I like green tea", "id": "old-tea"},
            ]
        )
        assert old.created == 3
        memory._store.execute(
            "MATCH (c:Card) REMOVE c.identity WITH count(c) AS n "
            "MATCH (u:User) REMOVE u.identity_scheme RETURN n",
            write=True,
        )

    with Memory.open(home) as memory:  # opening migrates
        assert memory._store.run("users_without_identities") == []
        first = memory.get(user, "old-first")
        assert (first.status.value, first.seen_count) == ("active", 2)
        assert first.last_seen == Card(**said(user, "s2", "2024-02-01")).timestamp
        second = memory.provenance(user, "old-second")
        assert second.card.status.value == "superseded"
        [by] = second.superseded_by
        assert (by.id, by.decided_by) == ("old-first", "migration")
        assert second.status_reason == (
            "superseded by 'Bob plays chess on Sundays' (old-firs): "
            "the same fact, person and relationship stated again: a repeat"
        )
        assert sorted(s.session_id for s in memory.provenance(user, "old-first").sources) == [
            "s1",
            "s2",
        ]
        # Remembering the fact again finds the old card, under its old id.
        assert memory.remember(said(user, "s3", "2024-03-01")).id == "old-first"
        assert memory.remember({"user_id": user, "fact": "I like green tea"}).id == "old-tea"
        assert memory.count(user) == {"active": 2, "superseded": 1}
        assert key_cards_by_identity(memory._store) == 0  # done once
