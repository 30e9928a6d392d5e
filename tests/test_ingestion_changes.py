"""Extraction that keeps memory true: one fact per card, the user's own name, relationship
changes with history, and places, organisations and pets that are not people."""

from __future__ import annotations

from ingestion.extract import KEPT, Extractor
from ingestion.people import PersonRegistry


def turns(*texts: str, day: str = "2025-03-01") -> list[dict[str, object]]:
    return [
        {
            "session_id": day,
            "turn": i,
            "speaker": "user",
            "timestamp": f"{day}T10:0{i}:00Z",
            "text": t,
        }
        for i, t in enumerate(texts)
    ]


def extract(
    *sessions: list[dict[str, object]],
) -> tuple[list[tuple[str, str, str | None]], PersonRegistry]:
    """The cards the rules read (a turn cut into several is also kept whole, as said)."""
    extractor = Extractor("u1")
    cards = [c for session in sessions for c in extractor.conversation(session)]
    read = [c for c in cards if c.source is not None and c.source.extractor != KEPT]
    return [(c.fact, c.person, c.relationship) for c in read], extractor.registry


def relationships(registry: PersonRegistry) -> dict[str, tuple[str | None, list[str]]]:
    return {r.name: (r.relationship, r.relationship_history) for r in registry}


def test_a_compound_statement_becomes_one_fact_per_card():
    cards, _ = extract(
        turns(
            "I live in Chicago with my dog Biscuit.",
            "Tom is no longer my manager; my new manager is Priya.",
            "For flights I like a window seat and the vegetarian meal.",
            "Omar quit the bakery and works at a bike shop now.",
        )
    )
    assert [fact for fact, _, _ in cards] == [
        "I live in Chicago",
        "I have a dog named Biscuit",
        "Tom is no longer my manager",
        "My new manager is Priya",
        "For flights I like a window seat",
        "For flights I like the vegetarian meal",
        "Omar quit the bakery",
        "Omar works at a bike shop now",
    ]


def test_a_manager_change_moves_the_role_and_keeps_the_history():
    cards, registry = extract(
        turns("Tom is my manager at work.", day="2025-01-10"),
        turns("Tom is no longer my manager; my new manager is Priya.", day="2025-07-01"),
    )
    assert cards[1:] == [
        ("Tom is no longer my manager", "Tom", "former manager"),
        ("My new manager is Priya", "Priya", "manager"),
    ]
    assert relationships(registry) == {
        "Tom": ("former manager", ["manager"]),
        "Priya": ("manager", []),
    }


def test_a_job_begun_at_a_new_place_leaves_the_old_boss_behind():
    _, registry = extract(
        turns("craig (my boss at salt media) called an all hands at 4pm", day="2025-01-20"),
        turns("update: contract signed, started at bondi bottle co on the 1st", day="2025-09-14"),
    )
    assert relationships(registry) == {"Craig": ("former manager", ["boss"])}


def test_a_job_only_talked_about_leaves_the_boss_where_he_is():
    _, registry = extract(
        turns("My boss Craig called an all hands at 4pm.", day="2025-01-20"),
        turns("I might start at Bondi Bottle Co if the contract comes through.", day="2025-03-02"),
    )
    assert relationships(registry) == {"Craig": ("boss", [])}


def test_a_suburb_the_chat_puts_after_in_is_no_one():
    _, registry = extract(
        turns(
            "new job is great, its a bit of a trek from Marrickville but fine",
            "my boyfriend liam and i got a place together in marrickville!!",
            "theres a gym in Marrickville, 5 min walk",
        )
    )
    assert relationships(registry) == {"Liam": ("boyfriend", [])}


def test_a_pronoun_takes_the_role_and_a_colleague_becomes_the_boss():
    cards, registry = extract(
        turns("My boss is Karen, she's strict.", "Raj is my colleague on the data team."),
        turns(
            "Luis took over the team, he's my boss now.",
            "Raj got promoted and he's my manager now.",
            day="2025-06-09",
        ),
    )
    assert relationships(registry) == {
        "Karen": ("former manager", ["boss"]),
        "Raj": ("manager", ["colleague"]),
        "Luis": ("former manager", ["boss"]),
    }
    assert ("He's my boss now", "Luis", "boss") in cards


def test_breakups_exes_and_deaths_change_the_relationship():
    _, registry = extract(
        turns("My boyfriend Dan loves seafood.", "My dad Robert loves fishing.", day="2025-01-05"),
        turns(
            "Dan and I broke up last week.",
            "My father passed away in December.",
            "I'm cooking my late mother's lentil soup tonight.",
            "Her name was Helen and she never wrote anything down.",
            day="2025-03-30",
        ),
    )
    assert relationships(registry) == {
        "Dan": ("ex-boyfriend", ["boyfriend"]),
        "Robert": ("late father", ["dad"]),
        "Helen": ("late mother", []),
    }


def test_the_user_says_their_name_and_it_names_nobody_else():
    cards, registry = extract(
        turns("Hi! I'm Maya, by the way.", "My name is Robert but please call me Bobby.")
    )
    assert registry.user_names == ["Maya", "Robert", "Bobby"]
    assert {person for _, person, _ in cards} == {"me"}
    assert [p.name for p in registry.to_people("u1")] == ["me"]


def test_places_organisations_and_pets_are_not_people():
    cards, registry = extract(
        turns(
            "I moved to Porto with my two cats, Pixel and Byte.",
            "Pixel has figured out how to open the fridge.",
            "I just adopted a cat named Miso!",
            "Miso knocked my plant off the shelf again.",
            "I'm studying law at McGill.",
            "I visited Jordan in the spring.",
            "My best friend Sydney just moved to Perth.",
        )
    )
    assert relationships(registry) == {  # the user's pets are kept as pets, by kind
        "Sydney": ("best friend", []),
        "Pixel": ("cat", []),
        "Byte": ("cat", []),
        "Miso": ("cat", []),
    }
    assert {person for _, person, _ in cards} == {"me", "Sydney"}  # a pet's news is the user's
