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
