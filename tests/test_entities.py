"""Entities on a real store: people are the Person nodes cards are about, other kinds
sit beside them, relations are typed, duplicates merge, facts carry their triple."""

from __future__ import annotations

import pytest

from graphmem import Card, ConflictError, Memory, NotFoundError, ValidationError


def test_people_and_other_kinds_share_one_id_space(memory: Memory, user: str) -> None:
    alice = memory.entities.add(user, "Alice Johnson", "person", description="Engineer")
    assert (alice.type, alice.description) == ("PERSON", "Engineer")
    assert memory.entities.add(user, "alice johnson", "PERSON").id == alice.id
    mercury_object = memory.entities.add(user, "Mercury", "OBJECT")
    mercury_place = memory.entities.add(user, "Mercury", "LOCATION")
    assert mercury_object.id != mercury_place.id
    assert memory.entities.by_name(user, "ALICE JOHNSON") == memory.entities.get(user, alice.id)
    assert memory.entities.by_name(user, "Mercury", type="LOCATION").id == mercury_place.id
    assert memory.entities.by_name(user, "Nobody") is None
    # The person entity is the person recall and people() know.
    assert "Alice Johnson" in [p.name for p in memory.people(user)]
    with pytest.raises(ValidationError):
        memory.entities.add(user, "X", "not a kind")


def test_people_written_by_cards_are_entities(memory: Memory, user: str) -> None:
    memory.remember(Card(user_id=user, fact="Bob runs marathons", person="Bob"))
    memory.remember(Card(user_id=user, fact="I like tea"))  # about the user: not an entity
    [bob] = memory.entities.list(user)
    assert (bob.name, bob.type, bob.cards) == ("Bob", "PERSON", 1)
    assert memory.entities.get(user, bob.id) == bob
    assert [c.fact for c in memory.entities.cards(user, bob.id)] == ["Bob runs marathons"]


def test_search_finds_names_words_and_meaning(memory: Memory, user: str) -> None:
    for name, kind, description in [
        ("Alice Johnson", "PERSON", "Software engineer at Acme Corp"),
        ("Bob Smith", "PERSON", "Project manager"),
        ("Acme Corp", "ORGANIZATION", "Technology company"),
        ("San Francisco", "LOCATION", "City in California"),
    ]:
        memory.entities.add(user, name, kind, description=description)
    assert memory.entities.search(user, "Alice Johnson")[0].entity.name == "Alice Johnson"
    assert memory.entities.search(user, "a technology company")[0].entity.name == "Acme Corp"
    assert len(memory.entities.search(user, "person", k=2)) <= 2
    assert memory.entities.search(user, "quantum cryptography algorithms") == []
    assert memory.entities.search("nobody-else", "Alice") == []


def test_relations_typed_traversed_and_merged(memory: Memory, user: str) -> None:
    e = memory.entities
    alice, bob = e.add(user, "Alice", "PERSON"), e.add(user, "Bob", "PERSON")
    acme, sf = e.add(user, "Acme", "ORGANIZATION"), e.add(user, "San Francisco", "LOCATION")
    works = e.relate(user, alice.id, acme.id, "WORKS_AT", properties={"since": 2020})
    assert e.relate(user, alice.id, acme.id, "WORKS_AT").id == works.id  # idempotent
    e.relate(user, alice.id, bob.id, "KNOWS")
    e.relate(user, acme.id, sf.id, "LOCATED_AT")
    assert works.properties == {"since": 2020}
    assert {x.name for x in e.related(user, alice.id)} == {"Acme", "Bob"}
    assert [x.name for x in e.related(user, alice.id, type="KNOWS")] == ["Bob"]
    assert {x.name for x in e.related(user, alice.id, depth=2)} == {"Acme", "Bob", "San Francisco"}
    assert e.related(user, sf.id, type="KNOWS") == []
    # A duplicate folds into the original: relations, cards and names move over.
    dupe = e.add(user, "A. Johnson", "PERSON")
    e.relate(user, dupe.id, sf.id, "LIVES_IN")
    memory.remember(Card(user_id=user, fact="A. Johnson plays chess", person="A. Johnson"))
    merged = e.merge(user, dupe.id, alice.id)
    assert (merged.id, merged.name, merged.aliases) == (alice.id, "Alice", ["A. Johnson"])
    assert {x.name for x in e.related(user, alice.id)} == {"Acme", "Bob", "San Francisco"}
    assert e.get(user, dupe.id).id == alice.id  # the old id resolves to the survivor
    assert [c.fact for c in e.cards(user, alice.id)] == ["A. Johnson plays chess"]
    with pytest.raises(ConflictError):
        e.merge(user, bob.id, acme.id)
    with pytest.raises(NotFoundError):
        e.relate(user, alice.id, "no-such-entity", "KNOWS")
    with pytest.raises(ValidationError):
        e.relate(user, alice.id, bob.id, "KNOWS; DROP")


def test_facts_carry_their_triple_and_link_entities(memory: Memory, user: str) -> None:
    acme = memory.entities.add(user, "Acme Corp", "ORGANIZATION")
    fact = memory.entities.add_fact(user, "Alice Johnson", "WORKS_AT", "Acme Corp")
    assert (fact.fact, fact.person, fact.triple) == (
        "Alice Johnson works at Acme Corp",
        "Alice Johnson",
        ("Alice Johnson", "WORKS_AT", "Acme Corp"),
    )
    assert memory.get(user, fact.id).triple == ("Alice Johnson", "WORKS_AT", "Acme Corp")
    assert [c.id for c in memory.entities.cards(user, acme.id)] == [fact.id]
    located = memory.entities.add_fact(user, "Acme Corp", "LOCATED_IN", "San Francisco")
    assert located.person == "me"  # an organisation is not a person: the user's fact
    assert {c.id for c in memory.entities.cards(user, acme.id)} == {fact.id, located.id}
    unicode = memory.entities.add_fact(user, "Café 世界", "LOCATED_IN", "París")
    assert unicode.triple == ("Café 世界", "LOCATED_IN", "París")
