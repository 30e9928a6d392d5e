"""A life change said in a language with no slot examples of its own still answers.

Only English and Chinese keep slot examples (``Language.slot_examples``). A move said in
French or Taglish is compared with every language's examples in each space the embedder
has a vector of it in: French is embedded by MiniLM, which reads little of it, and the
multilingual model reads it too, against the English examples' vectors there. So "on a
emménagé à nantes" gets the likely slot ``me|location`` and "j'habite où maintenant ?"
(a question French asks by its own words, ``Grammar.asks``) or "where do i live now?"
gets it first, while the near misses of the move ("je pense déménager un jour") get none.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem import Memory
from graphmem.algorithms.slots import SlotReader
from ingestion.pipeline import ingest_file
from tests.conftest import write_chat

MOVED = "grosse nouvelle : on a emménagé à nantes, un petit appart près de la gare, deux pièces"
CHAT = [
    {"session_id": "mar-3", "date": "2024-03-03T21:00:00Z"},
    {
        "session_id": "mar-3",
        "speaker": "user",
        "text": "je pense peut-être déménager à bordeaux un jour, mon cousin adore",
    },
    {"session_id": "mar-3", "speaker": "assistant", "text": "Bordeaux est une belle ville !"},
    {"session_id": "apr-9", "date": "2024-04-09T20:00:00Z"},
    {"session_id": "apr-9", "speaker": "user", "text": MOVED},
    {"session_id": "apr-9", "speaker": "assistant", "text": "Félicitations !"},
    {"session_id": "may-2", "date": "2024-05-02T20:00:00Z"},
    {
        "session_id": "may-2",
        "speaker": "user",
        "text": "le boulot était épuisant aujourd'hui, trois réunions d'affilée",
    },
]


@pytest.fixture
def chat(memory: Memory, user: str, tmp_path: Path) -> str:
    ingest_file(memory, write_chat(tmp_path, CHAT), user, progress=False)
    return user


@pytest.mark.parametrize("question", ["j'habite où maintenant ?", "where do i live now?"])
def test_a_move_said_in_french_answers_where_i_live(memory: Memory, chat: str, question: str):
    assert memory.recall(chat, question, k=3)[0].card.fact.lower() == MOVED


def test_changes_in_languages_without_examples_get_a_slot(memory: Memory):
    """A move in French and in Taglish, a new job in Spanish: a slot each; a plan to
    move, a hard day at work, a move someday, in the same languages: none."""
    said = [
        MOVED,
        "nakalipat na kami! nag-rent kami ng maliit na apartment sa cebu city, 2 bedroom",
        "empecé mi nuevo trabajo en el hospital el lunes",
        "je pense peut-être déménager à bordeaux un jour",
        "le boulot était épuisant aujourd'hui",
        "pagod ako sa work ngayon, grabe ang daming pasyente",
        "baka lumipat kami sa davao next year",
    ]
    vectors = memory.embedder.embed([f"I: {s}" for s in said])
    assert SlotReader(memory.embedder).slots(said, vectors) == [
        "location",
        "location",
        "employer",
        "",
        "",
        "",
        "",
    ]
