"""Synthetic but varied memory cards for benchmarks (seeded, no network, no model)."""

from __future__ import annotations

import random
from collections.abc import Iterator

PEOPLE = [
    "Alice",
    "Bob",
    "Carol",
    "Dmitri",
    "Emma",
    "Farah",
    "Gustavo",
    "Hana",
    "Ibrahim",
    "Jun",
    "Kofi",
    "Lena",
    "Mateo",
    "Nadia",
    "Oskar",
    "Priya",
    "Quinn",
    "Rosa",
]
RELATIONSHIPS = [
    "sister",
    "brother",
    "manager",
    "friend",
    "neighbour",
    "colleague",
    "mother",
    "father",
    "cousin",
    "partner",
    "daughter",
    "son",
]
TEMPLATES = [
    "{p} is allergic to {food}",
    "{p} loves {hobby} on weekends",
    "{p} lives in {city}",
    "{p} moved to {city} last {month}",
    "{p} works as a {job} at {company}",
    "{p} prefers {drink} in the morning",
    "{p} is learning {skill} since {month}",
    "{p}'s favourite book is about {topic}",
    "{p} wants to visit {city} in {month}",
    "{p} started a new job at {company}",
    "{p} does not like {food}",
    "{p} is training for a {event} in {city}",
    "{p} has a dog called {pet}",
]
WORDS = {
    "food": ["peanuts", "shellfish", "gluten", "dairy", "eggs", "soy", "sesame", "kiwi"],
    "hobby": ["hiking", "climbing", "painting", "chess", "cycling", "pottery", "surfing"],
    "city": ["Paris", "Berlin", "Lisbon", "Osaka", "Nairobi", "Toronto", "Lyon", "Porto"],
    "month": ["January", "March", "May", "July", "September", "November"],
    "job": ["nurse", "data engineer", "teacher", "architect", "chef", "pilot", "designer"],
    "company": ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay", "Stark"],
    "drink": ["black coffee", "green tea", "oat latte", "espresso", "chai"],
    "skill": ["Spanish", "guitar", "Rust", "sailing", "woodworking", "piano"],
    "topic": ["ancient Rome", "ocean life", "space travel", "chess openings", "gardening"],
    "event": ["marathon", "triathlon", "half marathon", "cycling tour", "swim meet"],
    "pet": ["Biscuit", "Luna", "Max", "Pepper", "Ziggy", "Mochi"],
}


def synthetic_cards(n: int, *, users: int = 10, seed: int = 0) -> Iterator[dict]:
    """``n`` card dicts spread over ``users`` users, distinct facts, 2023-2024 timestamps."""
    rng = random.Random(seed)
    for i in range(n):
        person = rng.choice(PEOPLE)
        template = rng.choice(TEMPLATES)
        fact = template.format(p=person, **{k: rng.choice(v) for k, v in WORDS.items()})
        yield {
            "user_id": f"bench-user-{i % users}",
            "fact": f"{fact} (note {i})",
            "person": person,
            "relationship": rng.choice(RELATIONSHIPS),
            "backstory": f"mentioned in conversation {i // 20}",
            "timestamp": 1_672_531_200_000 + rng.randrange(0, 730) * 86_400_000,
            "importance": round(rng.random(), 2),
        }


def synthetic_user(n: int, user_id: str, *, people: int = 36, seed: int = 0) -> Iterator[dict]:
    """``n`` distinct cards of one user, as a long conversation would leave them:
    ``people`` people with a fixed relationship each (a few with many cards, most with
    some), a sixth of the cards about the user, one card in five with its source turn
    and evidence span; timestamps over 2023-2024. The first ``m`` cards of ``n`` are the
    cards of ``synthetic_user(m, ...)`` (same seed), facts and all."""
    rng = random.Random(seed)
    names = [f"{name} {suffix}".strip() for suffix in ("", "Jr") for name in PEOPLE][:people]
    relationships = {name: RELATIONSHIPS[i % len(RELATIONSHIPS)] for i, name in enumerate(names)}
    weights = [1.0 / (1 + i) ** 0.7 for i in range(len(names))]
    said: set[tuple[str, str]] = set()
    for i in range(n):
        me = rng.random() < 1 / 6
        person = "me" if me else rng.choices(names, weights)[0]
        fact = rng.choice(TEMPLATES).format(
            p="I" if me else person, **{k: rng.choice(v) for k, v in WORDS.items()}
        )
        fact = fact.replace("I is", "I am").replace("I's", "My").replace("I has", "I have")
        if (person, fact) in said:  # the same fact twice is one card: say when it came up
            fact = f"{fact} (said again, note {i})"
        said.add((person, fact))
        card = {
            "user_id": user_id,
            "fact": fact,
            "person": person,
            "relationship": None if me else relationships[person],
            "timestamp": 1_672_531_200_000 + rng.randrange(0, 730 * 24) * 3_600_000,
            "importance": round(rng.random(), 2),
        }
        if i % 5 == 0:
            said_text = f"By the way, {fact[0].lower()}{fact[1:]}."
            start = said_text.index(",") + 2
            card["source"] = {
                "session_id": f"session-{i // 50}",
                "turn": i % 50,
                "speaker": "user",
                "text": said_text,
                "span": [start, len(said_text) - 1],
            }
        yield card
