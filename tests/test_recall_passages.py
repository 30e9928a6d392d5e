"""Recall ranks source turns with their cards: conversations, filters, relevance.

A conversation goes through the real ingestion path; recall answers with cards whose
provenance is the turn asked about, one card per turn, and a calibrated relevance.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from graphmem import Memory
from ingestion.pipeline import ingest_file

CHAT = [
    ("s1", "2023-05-08", "Caroline", "Hey Mel! How have you been? Anything new with the kids?"),
    ("s1", "2023-05-08", "Melanie", "Busy! We went camping at the lake last weekend."),
    ("s1", "2023-05-08", "Caroline", "Nice. Did you get any painting done?"),
    ("s1", "2023-05-08", "Melanie", "Yes, I painted a sunrise over the water. Took me ages!"),
    ("s1", "2023-05-08", "Caroline", "I went to a support group meeting yesterday."),
    ("s1", "2023-05-08", "Melanie", "That sounds powerful. How did it go?"),
    ("s2", "2023-06-20", "Caroline", "I started researching adoption agencies this week."),
    ("s2", "2023-06-20", "Melanie", "That's wonderful. Which one are you looking at?"),
    ("s2", "2023-06-20", "Caroline", "One that supports LGBTQ families, they seem welcoming."),
    ("s2", "2023-06-20", "Melanie", "My son broke his arm at the playground, so it's been hectic."),
]


@pytest.fixture
def chat(memory: Memory, tmp_path: Path) -> str:
    """A two-person chat, ingested for the first speaker (user id = her name)."""
    user = f"Caroline-{uuid.uuid4().hex[:6]}"
    lines, dated = [], set()
    for turn, (session, date, speaker, text) in enumerate(CHAT):
        if session not in dated:
            dated.add(session)
            lines.append({"session_id": session, "date": date})
        speaker = user if speaker == "Caroline" else speaker
        lines.append({"session_id": session, "turn": turn, "speaker": speaker, "text": text})
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines))
    ingest_file(memory, path, user, progress=False)
    return user


def test_a_question_finds_the_turn_that_answers_it(memory: Memory, chat: str):
    hits = memory.recall(chat, "When did Melanie paint a sunrise?", k=3)
    assert hits[0].card.source.text.startswith("Yes, I painted a sunrise over the water")
    assert hits[0].card.source.session_id == "s1"
    assert {"fulltext", "vector"} <= set(hits[0].found_by)


def test_each_turn_offers_one_card(memory: Memory, chat: str):
    hits = memory.recall(chat, "adoption agencies for LGBTQ families", k=10)
    turns = [(h.card.source.session_id, h.card.source.turn) for h in hits]
    assert len(turns) == len(set(turns))
    assert set(turns[:2]) == {("s2", 6), ("s2", 8)}


def test_the_turn_asked_about_brings_its_answer(memory: Memory, chat: str):
    # The question's words are in Caroline's question; the answer is the next turn.
    hits = memory.recall(chat, "Which agency are you looking at?", k=4)
    assert ("s2", 8) in [(h.card.source.session_id, h.card.source.turn) for h in hits]


def test_relevance_says_when_nothing_is_relevant(memory: Memory, chat: str):
    assert memory.recall(chat, "What is the boiling point of mercury?", min_relevance=0.2) == []
    hits = memory.recall(chat, "What did Melanie paint?", min_relevance=0.2)
    assert hits[0].card.source.text.startswith("Yes, I painted a sunrise")
    assert all(0.2 <= h.relevance <= 1 for h in hits)


def test_min_relevance_is_checked(memory: Memory, chat: str):
    from graphmem.errors import ValidationError

    with pytest.raises(ValidationError, match="min_relevance"):
        memory.recall(chat, "painting", min_relevance=1.5)


# ---------------------------------------------------------------------------- filters

#: 5,000 cards that all match the question better than the few that pass each filter.
CROWD = 5000
QUESTION = "what was decided about the quarterly budget review?"


@pytest.fixture(scope="module")
def crowded(memory: Memory) -> str:
    user = f"crowd-{uuid.uuid4().hex[:8]}"
    cards = [
        {
            "user_id": user,
            "fact": f"Quarterly budget decided, item {i}",
            "timestamp": "2024-01-01",
            "category": "work",
        }
        for i in range(CROWD)
    ]
    cards += [
        {
            "user_id": user,
            "fact": "Dentist said my wisdom tooth must come out",
            "person": "me",
            "timestamp": "2024-03-01",
            "category": "health",
            "tags": ["dentist"],
        },
        {
            "user_id": user,
            "fact": "Priya keeps bees on her allotment",
            "person": "Priya",
            "relationship": "neighbour",
            "timestamp": "2024-05-01",
            "category": "life",
            "tags": ["bees"],
        },
    ]
    memory.remember_many(cards, batch_size=1000)
    return user


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"category": "health"}, "Dentist said my wisdom tooth must come out"),
        ({"tags": ["bees"]}, "Priya keeps bees on her allotment"),
        ({"person": "Priya"}, "Priya keeps bees on her allotment"),
        ({"relationship": "neighbour"}, "Priya keeps bees on her allotment"),
        (
            {"since": "2024-02-01", "until": "2024-04-01"},
            "Dentist said my wisdom tooth must come out",
        ),
    ],
)
def test_filters_narrow_candidates_before_ranking(memory: Memory, crowded: str, filters, expected):
    unfiltered = memory.recall(crowded, QUESTION, k=150)
    assert expected not in [h.card.fact for h in unfiltered]  # ranked below 150
    hits = memory.recall(crowded, QUESTION, k=3, **filters)
    assert [h.card.fact for h in hits] == [expected]


def test_card_ids_narrow_candidates_before_ranking(memory: Memory, crowded: str):
    [bees] = memory.recall(crowded, "bees", k=1)
    hits = memory.recall(crowded, QUESTION, k=3, card_ids=[bees.card.id])
    assert [h.card.id for h in hits] == [bees.card.id]


def test_recalls_running_while_the_user_writes_see_whole_passages(memory: Memory, user: str):
    """Each recall catches the user's passages up: two at once must not add rows under
    each other's arrays (this raised shape errors, 10 in 8 s, before recalls of one user
    took turns)."""
    import threading
    import time

    memory.remember_many([{"user_id": user, "fact": f"I like thing number {i}"} for i in range(50)])
    memory.recall(user, "thing", k=5)
    errors: list[str] = []
    stop = time.monotonic() + 3

    def write() -> None:
        for i in range(10_000):
            if time.monotonic() > stop:
                return
            memory.remember({"user_id": user, "fact": f"I visited place {i} today"})

    def ask() -> None:
        while time.monotonic() < stop:
            try:
                memory.recall(user, "which place did I visit", k=5)
            except Exception as exc:  # any failure is the finding
                errors.append(repr(exc))

    threads = [threading.Thread(target=write)] + [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert memory.recall(user, "which place did I visit", k=1)[0].card.fact.startswith("I visited")
