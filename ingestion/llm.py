"""Optional extraction with an LLM (any langchain-core chat model), falling back to spaCy.

The model is asked for atomic facts with the five card fields, in a fixed order of
priority (user corrections and preferences first, environment facts last) and told what
memory already holds so it does not repeat it. Output is parsed with
``with_structured_output`` when the model supports it, else as JSON in the reply. A
failed or invalid answer is retried (3 attempts, short waits); after that the spaCy path
extracts the same turns. Either way nothing said is lost: an assistant's turns, and any
turn the model found nothing in, are kept as said (``ingestion.said``), as the spaCy
path keeps what its rules do not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field
from tenacity import Retrying, stop_after_attempt, wait_fixed

from graphmem import lang
from graphmem.llm import decided_by, reply_text
from graphmem.models import SELF, Card, Category, Person, Provenance
from graphmem.timeutil import ms_to_datetime, to_iso, to_ms
from ingestion import said
from ingestion.extract import DEFAULT_MODEL, MAX_READ, Extractor, iso_day
from ingestion.loaders import Turn
from ingestion.people import PersonRegistry

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

MAX_TURNS_PER_CALL = 20
MAX_KNOWN_FACTS = 50

SYSTEM_PROMPT = (
    """\
You extract long-term memory about the user from a conversation, as atomic facts.
Priorities, highest first:
1. the user's corrections of earlier information, and the user's preferences;
2. solutions that worked for the user;
3. decisions the user made;
4. events in the user's life (with when they happen or happened);
5. facts about the user's environment (people, places, tools).
Rules:
- One fact = one statement, readable on its own (name people, no "he"/"she").
- person: who the fact is about; "me" for the user. relationship: that person's
  relationship to the user ("sister", "manager"), null if unknown; "self" for the user.
- timestamp: ISO-8601 date when the fact happened or becomes true if the text says
  (resolve "yesterday", "last Friday" against the turn's date), else null.
- backstory: one short phrase on how it came up.
- turn: the [index] of the turn the fact comes from; evidence: the exact words.
- Skip small talk, questions, and anything already in memory (listed below).
Answer with JSON only: {"facts": [{"fact": ..., "backstory": ..., "person": ...,
"relationship": ..., "timestamp": ..., "turn": ..., "evidence": ..., "category": ...,
"importance": ...}]}. category is one of: """
    + ", ".join(c.value for c in Category)
    + "."
)


class LLMFact(BaseModel):
    """One fact as the model returns it."""

    fact: str = Field(min_length=1)
    backstory: str = ""
    person: str = SELF
    relationship: str | None = None
    timestamp: str | None = None
    turn: int = Field(ge=0)
    evidence: str | None = None
    category: Category = Category.OTHER
    importance: float = Field(0.5, ge=0.0, le=1.0)


class LLMFacts(BaseModel):
    """The whole answer: a list of facts (possibly empty)."""

    facts: list[LLMFact]


def build_messages(turns: Sequence[Turn], known_facts: Sequence[str]) -> list[tuple[str, str]]:
    """System + human messages for one window of turns."""
    known = "\n".join(f"- {f}" for f in known_facts[:MAX_KNOWN_FACTS]) or "(nothing yet)"
    lines = [
        f"[{i}] ({t.session_id}, {to_iso(t.when)}) {t.speaker}: {t.text}"
        for i, t in enumerate(turns)
    ]
    human = f"Already in memory:\n{known}\n\nConversation:\n" + "\n".join(lines)
    return [("system", SYSTEM_PROMPT), ("human", human)]


def parse_reply(reply: Any, n_turns: int) -> LLMFacts:
    """Validate a structured result or the JSON in a text reply; raise ValueError if bad."""
    if isinstance(reply, LLMFacts):
        facts = reply
    elif isinstance(reply, dict):
        facts = LLMFacts.model_validate(reply)
    else:
        text = re.sub(r"^```(?:json)?\s*|\s*```$", "", reply_text(reply).strip())
        start, end = text.find("{"), text.rfind("}")
        if start < 0 or end < start:
            raise ValueError("no JSON object in the reply")
        facts = LLMFacts.model_validate_json(text[start : end + 1])
    for fact in facts.facts:
        if fact.turn >= n_turns:
            raise ValueError(f"fact refers to turn {fact.turn}, only {n_turns} given")
    return facts


def _windows(turns: Sequence[Turn], size: int) -> Iterator[list[Turn]]:
    """Consecutive turns of one session, at most ``size`` at a time."""
    window: list[Turn] = []
    for turn in turns:
        if window and (len(window) >= size or turn.session_id != window[-1].session_id):
            yield window
            window = []
        window.append(turn)
    if window:
        yield window


class LLMExtractor:
    """Extract cards with a chat model; spaCy (plus raw turns) when the model fails."""

    def __init__(
        self,
        llm: BaseChatModel,
        user_id: str,
        *,
        people: PersonRegistry | Iterable[Person] | None = None,
        known_facts: Sequence[str] = (),
        attempts: int = 3,
        wait_s: float = 0.2,
        window: int = MAX_TURNS_PER_CALL,
        model: str = DEFAULT_MODEL,
    ) -> None:
        self.llm = llm
        self.fallback = Extractor(user_id, people, model)
        self.user_id = user_id
        self.known = list(known_facts)
        self.attempts = attempts
        self.wait_s = wait_s
        self.window = window
        self.extractor = decided_by(llm)
        self.failures = 0
        try:
            self._structured: Any = llm.with_structured_output(LLMFacts)
        except (NotImplementedError, AttributeError, TypeError, ValueError):
            self._structured = None

    @property
    def registry(self) -> PersonRegistry:
        return self.fallback.registry

    def conversation(self, turns: Iterable[Turn | dict[str, Any]]) -> list[Card]:
        """Cards from turns, in turn order: the model reads people's turns; an
        assistant's turns, and turns it found nothing in, are kept as said."""
        kept = [t if isinstance(t, Turn) else Turn.model_validate(t) for t in turns]
        kept = [
            t for t in kept if t.speaker.lower() not in self.fallback.skipped_speakers and t.text
        ]
        people = [  # a turn too long to read is kept as said, as the spaCy path keeps it
            t for t in kept if not self.fallback.is_assistant(t.speaker) and len(t.text) <= MAX_READ
        ]
        cards: list[Card] = []
        for window in _windows(people, self.window):
            cards.extend(self._window(window))
        read = {(c.source.session_id, c.source.turn) for c in cards if c.source}
        for turn in kept:
            if (turn.session_id, turn.turn) not in read and not said.is_small_talk(turn.text):
                cards.extend(self.fallback.said_cards(turn, lang.detect(turn.text)))
        order: dict[tuple[str | None, int | None], int] = {
            (t.session_id, t.turn): i for i, t in enumerate(kept)
        }
        return sorted(
            cards,
            key=lambda c: order.get((c.source.session_id, c.source.turn), 0) if c.source else 0,
        )

    def _ask(self, turns: Sequence[Turn]) -> LLMFacts:
        messages = build_messages(turns, self.known)
        if self._structured is not None:
            try:
                return parse_reply(self._structured.invoke(messages), len(turns))
            except NotImplementedError:
                self._structured = None
        return parse_reply(self.llm.invoke(messages), len(turns))

    def _window(self, turns: list[Turn]) -> list[Card]:
        try:
            for attempt in Retrying(
                stop=stop_after_attempt(self.attempts), wait=wait_fixed(self.wait_s), reraise=True
            ):
                with attempt:
                    answer = self._ask(turns)
        except Exception:  # any model or parse failure: the spaCy path loses nothing
            self.failures += 1
            return self._fallback(turns)
        known = {f.casefold() for f in self.known}
        cards = []
        for fact in answer.facts:
            if fact.fact.casefold() in known:
                continue
            known.add(fact.fact.casefold())
            cards.append(self._card(fact, turns[fact.turn]))
        self.known.extend(c.fact for c in cards)
        return cards

    def _card(self, fact: LLMFact, turn: Turn) -> Card:
        person, relationship = SELF, None
        if fact.person.strip().lower() not in {SELF, "i", "user", "the user", "myself"}:
            res = self.registry.observe(fact.person, fact.relationship)
            person, relationship = res.name or fact.person, fact.relationship or res.relationship
        try:
            timestamp = to_ms(fact.timestamp) if fact.timestamp else turn.when
        except ValueError:
            timestamp = turn.when
        span = None
        if fact.evidence:
            at = turn.text.lower().find(fact.evidence.lower())
            span = (at, at + len(fact.evidence)) if at >= 0 else None
        where = (
            f"said by {turn.speaker} in session {turn.session_id} ({iso_day(turn.when)}), "
            f"turn {turn.turn}"
        )
        backstory = f"{fact.backstory}; {where}" if fact.backstory else where
        return Card(
            user_id=self.user_id,
            fact=fact.fact,
            backstory=backstory,
            person=person,
            relationship=relationship,
            timestamp=ms_to_datetime(timestamp),
            category=fact.category,
            importance=fact.importance,
            confidence=0.8,
            source=Provenance(
                session_id=turn.session_id,
                turn=turn.turn,
                speaker=turn.speaker,
                text=turn.text,
                span=span,
                extractor=self.extractor,
                session_date=turn.session_date,
            ),
        )

    def _fallback(self, turns: list[Turn]) -> list[Card]:
        """The spaCy path, which keeps as said whatever its rules do not read."""
        return self.fallback.conversation(turns)


def extract_with_llm(
    turns: Iterable[Turn | dict[str, Any]],
    user_id: str,
    llm: BaseChatModel,
    *,
    known_facts: Sequence[str] = (),
    people: PersonRegistry | Iterable[Person] | None = None,
    attempts: int = 3,
    wait_s: float = 0.2,
) -> list[Card]:
    """Cards from a conversation through ``llm``; see ``LLMExtractor``."""
    return LLMExtractor(
        llm, user_id, people=people, known_facts=known_facts, attempts=attempts, wait_s=wait_s
    ).conversation(turns)
