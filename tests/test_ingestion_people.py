"""One person across sessions and phrasings; near matches go to review, never merged."""

from graphmem.models import Person
from ingestion.people import PersonRegistry, Resolution


def sister_alice() -> PersonRegistry:
    reg = PersonRegistry()
    reg.observe("Alice", "sister")
    return reg


def test_full_name_and_relationship_resolve_to_the_known_person():
    reg = sister_alice()
    assert reg.resolve("Alice Smith") == Resolution("Alice", "sister", certain=True)
    assert reg.resolve("alice") == Resolution("Alice", "sister", certain=True)
    assert reg.resolve(None, relationship="sister") == Resolution("Alice", "sister", certain=True)


def test_observing_a_longer_name_adds_an_alias():
    reg = sister_alice()
    assert reg.observe("Alice Smith").name == "Alice"
    assert reg.get("Alice Smith").aliases == ["Alice Smith"]
    assert reg.resolve("Alice Smith").certain


def test_near_matches_are_candidates_not_merges():
    reg = sister_alice()
    reg.observe("Alice Smith")
    assert reg.resolve("Al") == Resolution("Al", None, certain=False, candidates=["Alice"])
    assert reg.resolve("Alice Jones") == Resolution(
        "Alice Jones", None, certain=False, candidates=["Alice"]
    )
    reg.observe("Alice Jones")
    assert sorted(r.name for r in reg) == ["Alice", "Alice Jones"]


def test_ambiguous_first_name_and_two_sisters_are_uncertain():
    reg = PersonRegistry()
    reg.observe("Alice Smith", "sister")
    reg.observe("Alice Jones", "sister")
    assert reg.resolve("Alice") == Resolution(
        "Alice", None, certain=False, candidates=["Alice Jones", "Alice Smith"]
    )
    assert reg.resolve(None, "sister") == Resolution(
        None, "sister", certain=False, candidates=["Alice Jones", "Alice Smith"]
    )
    assert reg.resolve("Alice", "sister").certain is False


def test_a_conflicting_relationship_is_flagged_not_applied():
    reg = sister_alice()
    res = reg.observe("Alice", "cousin")
    assert res == Resolution("Alice", "sister", certain=False, candidates=["Alice"])
    assert reg.get("Alice").relationship == "sister"


def test_correction_updates_relationship_and_keeps_history():
    reg = sister_alice()
    assert reg.correct("Alice", "Cousin") == Resolution("Alice", "cousin", certain=True)
    assert reg.get("Alice").relationship_history == ["sister"]
    assert reg.resolve(None, "sister").name is None
    assert reg.resolve(None, "cousin").name == "Alice"


def test_round_trip_through_person_models():
    reg = sister_alice()
    reg.observe("Alice Smith")
    reg.correct("Alice", "cousin")
    people = reg.to_people("u1")
    assert people == [
        Person(
            user_id="u1",
            name="Alice",
            relationship="cousin",
            aliases=["Alice Smith"],
            relationship_history=["sister"],
        )
    ]
    again = PersonRegistry.from_people(people)
    assert again.resolve("Alice Smith") == Resolution("Alice", "cousin", certain=True)
    assert PersonRegistry.load(reg.dump()).to_people("u1") == people
