"""A card's fact is the claim as said: a span of its turn, or a clean join of spans.

Checked over real chat exports (``bench/data/chats``: written by people who never read
the extraction code, lowercase, run-on, typos, both speakers) and over turns hypothesis
builds from their sentences: no card may fuse words, invent words, or lose a negation or
a modal ("not", "will", "want") of the words it cites.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingestion.extract import Extractor
from ingestion.loaders import Turn, load_conversation

CHATS = Path(__file__).parent.parent / "bench" / "data" / "chats"
#: Words whose loss reverses or weakens a claim.
_KEEP = re.compile(
    r"\b(?:not|never|no|will|won't|wont|want|can't|cant|cannot|don't|dont|didn't|didnt|"
    r"might|should|would|could)\b",
    re.IGNORECASE,
)
_SAID = re.compile(r"^.{1,60}? said: ")


def unfaithful(fact: str, turn: str, evidence: str) -> str | None:
    """Why ``fact`` is not a clean join of spans of ``turn`` (None when it is): the first
    word no span explains, or a negation or modal of ``evidence`` the fact lost. A
    "there" the turn says may stand resolved as "in" or "to" and the place the turn names
    ("im a vet nurse there" -> "... in albert park": ``extract._there_placed``)."""
    words, low, at = fact.split(), turn.lower(), 0
    resolved = re.search(r"\bthere\b", low) is not None
    while at < len(words):
        end = len(words)
        while end > at and not _in_turn(" ".join(words[at:end]), low):
            end -= 1
        if end == at and resolved and words[at].lower() in {"in", "to"}:
            end = at + 1  # the preposition of a resolved "there"; the place must be said
        elif end == at:
            return f"{words[at]!r} is not in the turn"
        at = end
    lost = [m[0] for m in _KEEP.finditer(evidence) if m[0].lower() not in fact.lower()]
    return f"lost {lost}" if lost else None


def _in_turn(span: str, turn: str) -> bool:
    """Is ``span`` said in the (lower-cased) turn, the mark a join put after it aside?"""
    return span.lower() in turn or span.rstrip(",.;:!?").lower() in turn


def check(cards: list) -> list[str]:
    problems = []
    for card in cards:
        src = card.source
        fact = card.fact if src.speaker == "user" else _SAID.sub("", card.fact)
        evidence = src.text[slice(*src.span)] if src.span else src.text
        if why := unfaithful(fact, src.text, evidence):
            problems.append(f"{card.fact!r}: {why}")
    return problems


@cache
def real_turns() -> list[Turn]:
    paths = sorted((CHATS / "companion-en").glob("*.jsonl"))
    paths += sorted((CHATS / "life-changes" / "dev").glob("*.jsonl"))
    return [turn for path in paths for turn in load_conversation(path)]


def test_every_card_of_real_chats_is_a_faithful_span():
    turns = real_turns()
    assert len(turns) > 1000
    cards = Extractor("u1").conversation(turns)
    assert cards
    assert check(cards) == []


@cache
def sentences() -> list[str]:
    text = " ".join(t.text for t in real_turns() if t.speaker == "user")
    return [s for s in re.split(r"(?<=[.!?])\s+", text) if 3 < len(s) < 200][:2000]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    picks=st.lists(st.integers(min_value=0, max_value=1999), min_size=1, max_size=4),
    joiner=st.sampled_from([" ", ", ", " and ", " lol ", "... ", " 😂 ", "\n"]),
    lower=st.booleans(),
)
def test_turns_built_from_real_sentences_give_faithful_facts(picks, joiner, lower):
    pool = sentences()
    text = joiner.join(pool[i % len(pool)] for i in picks)
    text = text.lower() if lower else text
    turn = Turn(session_id="s", turn=0, speaker="user", text=text, session_date=1714500000000)
    assert check(Extractor("u1").conversation([turn])) == []
