"""A life change said in words no rule reads still answers the question that asks it.

"the alder in collingwood took me on, sous chef not head chef" says where the user
works; no pattern of ``conflicts.RULES`` reads it, so its card has no claim. Its vector is
near the employer examples each language keeps (``Language.slot_examples``), so it is
stored with the likely slot ``me|employer`` and "where do i work now?" gets it first,
while "work was brutal today", which shares the word, does not. The slot only helps
recall: nothing supersedes by it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem import Memory
from graphmem.algorithms.slots import SlotReader
from ingestion.pipeline import ingest_file
from tests.conftest import write_chat

CHAT = [
    {"session_id": "mar-3", "date": "2024-03-03T21:00:00Z"},
    {
        "session_id": "mar-3",
        "speaker": "user",
        "text": "work was brutal today, two cooks called in sick and i ran the pass alone",
    },
    {
        "session_id": "mar-3",
        "speaker": "assistant",
        "text": "That sounds exhausting. Did you get a break at all?",
    },
    {"session_id": "apr-9", "date": "2024-04-09T20:00:00Z"},
    {
        "session_id": "apr-9",
        "speaker": "user",
        "text": "big news!! the alder in collingwood took me on, sous chef not head chef but still",
    },
    {"session_id": "apr-9", "speaker": "assistant", "text": "Congratulations! That's a big step."},
    {"session_id": "may-2", "date": "2024-05-02T20:00:00Z"},
    {
        "session_id": "may-2",
        "speaker": "user",
        "text": "thinking of moving to denver one day, my cousin loves it there",
    },
]
SIGNED = "Big news!! the alder in collingwood took me on, sous chef not head chef but still"


@pytest.fixture
def chat(memory: Memory, user: str, tmp_path: Path) -> str:
    ingest_file(memory, write_chat(tmp_path, CHAT), user, progress=False)
    return user


def top(memory: Memory, user: str, question: str) -> str:
    return memory.recall(user, question, k=3)[0].card.fact


def test_a_job_said_indirectly_answers_where_i_work_now(memory: Memory, chat: str):
    assert top(memory, chat, "where do i work now?") == SIGNED


def stored(memory: Memory, user: str) -> dict[str, dict]:
    """The stored card nodes by fact (``likely_claim`` is no field of the public Card)."""
    ids = [c.id for c in memory.cards(user, status=None)]
    rows = memory._store.run("get_cards", {"user_id": user, "ids": ids})
    return {r["card"]["fact"]: r["card"] for r in rows}


def test_the_likely_slot_is_stored_beside_the_rules_claim(memory: Memory, chat: str):
    signed = stored(memory, chat)[SIGNED]
    assert (signed["claim"], signed["likely_claim"]) == ("", "me|employer")


def test_a_likely_slot_supersedes_nothing(memory: Memory, user: str):
    said = [
        ("got the keys to a little weatherboard cottage, 2 bed, thornbury", "2024-02-01"),
        ("we signed the lease on the flat yesterday", "2024-07-01"),
    ]
    memory.remember_many([{"user_id": user, "fact": f, "timestamp": t} for f, t in said])
    memory.consolidate(user, steps=["conflicts"])
    cards = stored(memory, user)
    assert [cards[f]["likely_claim"] for f, _ in said] == ["me|location", "me|location"]
    assert [cards[f]["status"] for f, _ in said] == ["active", "active"]


def test_the_likely_slot_survives_export_and_import(memory: Memory, chat: str, user: str):
    again = f"{user}-again"
    memory.import_records(memory.export_records(chat, with_embeddings=True), user_id=again)
    assert top(memory, again, "where do i work now?") == SIGNED


def test_near_misses_get_no_slot(memory: Memory):
    """A day at work, a plan to move: words of the slot, no new value."""
    said = [
        "work was brutal today",
        "thinking of moving to denver",
        "got the keys to a little weatherboard in thornbury",
        "我们拿到新家的钥匙了，在滨江",
    ]
    vectors = memory.embedder.embed([f"I: {s}" for s in said])
    assert SlotReader(memory.embedder).slots(said, vectors) == ["", "", "location", "location"]


def test_a_change_said_in_one_clause_of_a_long_message_is_read(memory: Memory):
    """The rest of a message dilutes the clause that says the change (the first two
    messages are at cosine 0.49 and 0.51 of the nearest employer example, under
    ``THRESHOLD``): each clause of a message near a slot is read on its own ("starting at
    the county library next month": 0.60). Clauses that say no change give none."""
    said = [
        "big news, starting at the county library next month as an assistant librarian, "
        "so nervous lol",
        "so tired today, new job at the distribution centre in leeds, 6am starts are killing me",
        "ugh the boiler broke again, landlord says next week, the kids are freezing, "
        "we wrapped the dog in a blanket lol",
    ]
    vectors = memory.embedder.embed([f"I: {s}" for s in said])
    assert SlotReader(memory.embedder).slots(said, vectors) == ["employer", "employer", ""]
