"""Hybrid recall: passages ranked by words, meaning, neighbours and people; cards returned.

``recall`` gathers candidates, then ranks them; both are plain steps over plain data.

**Gather** (``gather``). The user's passages (``graphmem.recall.passages``: each source
turn with the cards that came from it, held in this process) are narrowed to those with a
card that passes the filters, so a filter never loses matches ranked far down. Then three
channels, each switchable for ablations:

- **fulltext**: BM25 of the query over each passage's key (turn text, speaker, date, and
  who its cards are about);
- **vector**: the exact cosine top of the eligible cards' vectors, which the passages
  hold (``UserPassages.nearest``: numpy in this process, no store query; a user in the
  store's HNSW index is searched there), each passage scored by its best card;
- **graph**: people the query names or refers to by relationship ("my sister" -> Alice),
  and people named in the best passages (one hop), whose passages gain in proportion to
  how much they narrow; cards summarised together with the best hits (abstractions).

**Rank** (``rank``, with ``graphmem.recall.scoring``): a convex combination of lexical and
dense relevance, plus the better neighbouring turn's and the people's; each passage then
offers its best eligible card, mixed with recency, importance, confidence and feedback.
Every hit reports a calibrated relevance, comparable across queries, which
``min_relevance`` thresholds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

import numpy as np
from pydantic import Field

from graphmem import lang
from graphmem.algorithms.conflicts import values_conflict
from graphmem.cards import card_from_row, person_key
from graphmem.embedding import Embedder
from graphmem.history import held_at
from graphmem.models import ASSISTANT_SPEAKERS, SELF, TURN, Card, Model, Status
from graphmem.recall import days, scoring, temporal
from graphmem.recall.lexical import terms
from graphmem.recall.mentions import (
    Known,
    Mention,
    canonical_relationship,
    find_mentions,
    pointer_phrases,
    relationship_words,
)
from graphmem.recall.passages import PassageIndex, UserPassages, dense_by_passage
from graphmem.recall.state import UserState
from graphmem.recall.vector import vector_candidates, wire_vector
from graphmem.relationships import is_current, role
from graphmem.store.base import GraphStore, Row
from graphmem.timeutil import now_ms

#: vector candidates (cards) at least, and per hit asked for
CANDIDATES = 50
DEPTH_PER_HIT = 3
#: best passages whose people are followed one hop
HOP_FROM = 5

CHANNELS = ("vector", "fulltext", "graph")


class RecallFilters(Model):
    """Restrict recall; every filter must hold for a card to be returned."""

    person: str | None = None
    relationship: str | None = None
    category: list[str] | None = None
    tags: list[str] | None = None
    since: int | None = Field(None, description="Only cards from this time on (epoch ms).")
    until: int | None = Field(None, description="Only cards up to this time (epoch ms).")
    statuses: list[Status] = Field(default_factory=lambda: [Status.ACTIVE])
    card_ids: list[str] | None = Field(None, description="Only among these cards (a task's).")
    as_of: int | None = Field(
        None, description="Answer from what memory held true at this time (epoch ms)."
    )
    known_at: int | None = Field(
        None, description="With as_of: what memory knew by this time (default: as_of)."
    )

    def point_in_time(self) -> dict[str, int] | None:
        """``{"as_of", "known_at"}`` for point-in-time recall (graphmem.history), or None."""
        if self.as_of is None:
            return None
        known_at = self.as_of if self.known_at is None else self.known_at
        return {"as_of": self.as_of, "known_at": known_at}

    @property
    def narrows(self) -> bool:
        """Does a filter other than status apply?"""
        return any(
            value is not None
            for value in (
                self.person,
                self.relationship,
                self.category,
                self.tags,
                self.since,
                self.until,
                self.card_ids,
                self.as_of,
            )
        )


class RecallHit(Model):
    """One recalled card: why it ranks where it does, and how it was found."""

    card: Card
    score: float
    relevance: float = Field(
        0.0,
        description="Calibrated relevance in [0, 1], comparable across queries "
        "(graphmem.recall.scoring): what min_relevance compares with.",
    )
    parts: dict[str, float]
    found_by: list[str]
    paths: list[str] = Field(default_factory=list)
    relationship: str | None = Field(
        None, description="The person's relationship to the user now (from the graph)."
    )


@dataclass
class Gathered:
    """What ``gather`` found for one query: the user's passages and, per passage, the
    signals ``rank`` combines (arrays indexed by passage row)."""

    held: UserPassages
    cards: np.ndarray  # card rows that pass the filters
    passages: np.ndarray  # passage rows with such a card
    bm25: np.ndarray
    best_possible: float
    cosine: dict[int, float]  # passage -> best candidate card's cosine
    best_card: dict[int, str]  # passage -> that card
    people: list[Known]
    mentions: list[Mention]
    statuses: list[str]
    channels: Sequence[str]
    query: str
    intent: temporal.TemporalIntent
    at: dict[str, int] | None
    #: passages said on the day the question names ("on May 4th"), or None: no day named
    on_day: np.ndarray | None = None
    #: the query's words beyond who it is about (names, relationship words): what it asks
    focus: list[str] = field(default_factory=list)
    #: the query asks for a number ("how many", "多少"): a passage shows its card with one
    asks_a_number: bool = False
    #: the query asks for a name ("what's our dog's name?"): likewise, the card giving it
    asks_a_name: bool = False
    #: the query asks for a surname ("what's her married name?"): a part of ``asks_a_name``
    asks_a_surname: bool = False
    #: passages the assistant said (``scoring.OTHER_SPEAKER``, ``scoring.ECHO``)
    by_assistant: np.ndarray | None = None
    #: the query asks what the assistant said ("what did you recommend?")
    asks_the_assistant: bool = False
    #: the query asks for a thing by its kind or name ("which app", "那部剧叫什么")
    asks_a_thing: bool = False
    #: graph channel ("graph", "graph-hop", "abstraction"), the passages it reached (a
    #: boolean mask or a set of rows) and how, e.g. "relationship 'sister' -> Alice -> card"
    routes: list[tuple[str, Any, str]] = field(default_factory=list)
    #: passages whose card states what the question asks ("where do I live now?"): as
    #: relevant as ``scoring.RELEVANT`` at least, whatever words they share with it
    answered: set[int] = field(default_factory=set)
    #: the passage that gives the surname asked, first in a near tie (``_surnames_first``)
    surname_given: int | None = None
    #: cards that told the user what a person the question asks about is to them
    introduced: set[str] = field(default_factory=set)
    #: card id -> fields recall reads it with instead of the stored ones: the claim of a
    #: slot only similarity read (``_likely``), as ``temporal.weight`` reads claims
    read_as: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: the query's terms a passage is searched for (``searched_terms``), read once
    searched: list[str] = field(default_factory=list)

    def reached(self, at: int) -> tuple[set[str], list[str]]:
        """The graph channels that reached passage ``at``, and their paths."""
        channels: set[str] = set()
        paths: list[str] = []
        for channel, passages, path in self.routes:
            if passages[at] if isinstance(passages, np.ndarray) else at in passages:
                channels.add(channel)
                if path not in paths:
                    paths.append(path)
        return channels, paths


def recall(
    store: GraphStore,
    embedder: Embedder,
    user_id: str,
    query: str,
    *,
    k: int = 10,
    filters: RecallFilters | None = None,
    now: int | None = None,
    channels: Sequence[str] = CHANNELS,
    passages: PassageIndex | None = None,
    min_relevance: float = scoring.MIN_RELEVANCE,
) -> list[RecallHit]:
    """The ``k`` best cards of ``user_id`` for ``query`` (see the module docstring).

    ``channels`` switches candidate channels off, for ablations (bench/recall_quality.py,
    bench/locomo.py); ``passages``: the process's passage index (a throwaway one is
    loaded without it); ``min_relevance``: hits below this calibrated relevance are left
    out.
    """
    filters = filters or RecallFilters()
    at = filters.point_in_time()
    if at is not None:  # as memory held it then, whatever became of it since (history.py)
        now = at["as_of"] if now is None else now
    now = now_ms() if now is None else now
    index = passages or PassageIndex(store, spaces=embedder.spaces)
    try:
        with index.reading(user_id):
            found = gather(
                store,
                embedder,
                user_id,
                query,
                depth=max(CANDIDATES, DEPTH_PER_HIT * k),
                filters=filters,
                channels=channels,
                passages=index,
                now=now,
            )
            return rank(store, user_id, found, k=k, now=now, min_relevance=min_relevance)
    finally:
        if passages is None:  # a throwaway index: no vectors read for it in the background
            index.close(timeout=0)


@cache
def _pool() -> ThreadPoolExecutor:
    """Threads for the store lookups of one recall (each takes its own connection)."""
    return ThreadPoolExecutor(max_workers=6, thread_name_prefix="graphmem-recall")


def gather(
    store: GraphStore,
    embedder: Embedder,
    user_id: str,
    query: str,
    *,
    depth: int,
    filters: RecallFilters,
    channels: Sequence[str],
    passages: PassageIndex,
    now: int,
) -> Gathered:
    """Candidates and their signals for ``query`` (module docstring, "Gather")."""
    pool = _pool()
    at = filters.point_in_time()
    # The store answers the people and the user's counters while the query is embedded.
    known = pool.submit(store.run, "known_people", {"user_id": user_id})
    state = pool.submit(UserState.read, store, user_id)
    vector = wire_vector(embedder.embed([query])[0]) if "vector" in channels else None
    counters = state.result()
    people = [Known(r["key"], r["name"], r["relationship"], r["since"]) for r in known.result()]
    held = passages.current(
        user_id,
        counters.revision,
        counters.deletions,
        {p.key: p.relationship for p in people},
    )
    with held.lock:
        user_names = held.user_speakers()
    # The name the user speaks under in their conversations is the user: a question
    # naming them is about "me" (not about cards where the other speaker says the name).
    people = [Known(SELF, p.name, "self") if p.key in user_names else p for p in people]
    # "used to", "in 2024": superseded cards join, and the card valid then is preferred
    # (graphmem.recall.temporal; ``rank`` applies its weight); whom the question is about
    # by the names memory knows, typed in any case ("where does kayla work?")
    names = [p.name.lower() for p in people if p.key != SELF and p.name]
    intent = temporal.read_intent(query, now, names)
    statuses = temporal.statuses(intent, [s.value for s in filters.statuses])
    names_a_day = days.names_a_day(query)
    if names_a_day and Status.ACTIVE in statuses and Status.SUPERSEDED not in statuses:
        # what was said that day, though a newer card has replaced it since
        statuses = [*statuses, Status.SUPERSEDED.value]
    if at is not None:  # every card held then counts, whatever its status now
        statuses = [s.value for s in Status]
    scoped = _scoped_keys(filters, people)
    with held.lock:
        cards = held.eligible(
            statuses,
            people=scoped,
            categories=filters.category,
            tags=filters.tags,
            since=filters.since,
            until=filters.until,
            card_ids=filters.card_ids,
            at=at,
        )
        # Over the vectors the passages hold (exact, in this process: recall/cosine.py),
        # once they are read (``UserPassages.vectors_ready``); until then, and for a user
        # promoted into the HNSW index (past ``vector.ANN_THRESHOLD`` cards) when no
        # filter narrows, in the store.
        in_process = held.vectors_ready and not (counters.ann and not filters.narrows)
        held_spaces = held.spaces() if vector is not None else set()
    # A question in one language, cards embedded by another model (Embedder.across).
    across = embedder.across(query, held_spaces) if held_spaces else {}
    with held.lock:
        hits = held.nearest(vector, depth, cards, across) if vector and in_process else []
        only = held.card_ids(np.flatnonzero(cards)) if filters.narrows and not in_process else None
    dense = (
        [
            pool.submit(
                vector_candidates,
                store,
                user_id,
                there,
                depth,
                statuses=statuses,
                indexed=counters.ann,
                only=only,
                at=at,
            )
            for there in (vector, *across.values())
        ]
        if vector is not None and not in_process and (only is None or only)
        else None
    )
    searched = searched_terms(query)
    query_terms = searched if "fulltext" in channels else []
    on_day = None
    with held.lock:
        eligible = held.passages_of(cards)
        if names_a_day:
            said_on = held.said_on()
            named = days.named_days(query, set(said_on[eligible]))
            if named is not None:
                on_day = np.array([d in named.days for d in said_on], dtype=bool) & eligible
                if named.in_order:  # "our very first chat": no words to find in it
                    cue = set(searched_terms(named.cue))  # ("her first" is no match)
                    query_terms = [t for t in query_terms if t not in cue]
        bm25 = held.bm25.scores(query_terms, len(held.passages)) * eligible
        best_possible = held.bm25.best_possible(query_terms)
    with held.lock:
        by_assistant = np.zeros(len(held.passages), dtype=bool)
        for speaker in ASSISTANT_SPEAKERS:
            by_assistant |= held.about(speaker, cards)
    mentions = find_mentions(query, people) if "graph" in channels else []
    if scoped is not None:
        mentions = [m for m in mentions if m.key in scoped]
    # what the query asks beyond who it is about and the kind of answer it wants
    about = {m.key for m in mentions}
    pointers = set(terms(" ".join(w for p in people if p.key in about for w in pointer_phrases(p))))
    focus = [t for t in query_terms if t not in pointers and t not in lang.answer_kind_terms()]
    if dense is not None:
        with held.lock:
            hits = held.in_own_space([d.result() for d in dense], [0, *across], depth)
    with held.lock:
        cosine, best_card = dense_by_passage(held, hits)
    return Gathered(
        held,
        cards,
        eligible,
        bm25,
        best_possible,
        cosine,
        best_card,
        people,
        mentions,
        statuses,
        channels,
        query,
        intent,
        at,
        on_day,
        focus,
        lang.asks_a_number(query),
        lang.asks_a_name(query),
        by_assistant=by_assistant,
        asks_the_assistant=lang.asks_the_assistant(query),
        asks_a_thing=lang.asks_a_thing(query),
        asks_a_surname=lang.asks_a_surname(query),
        searched=searched,
    )


def searched_terms(query: str) -> list[str]:
    """The query's terms a passage is searched for: "what did I say I'd book for Ella?"
    looks for "book" and "ella", not for every turn where someone "keeps saying" things,
    and "where do i live rn" for "live", not for every turn said "rn".

    >>> searched_terms("what did you tell me about the wheel class?")
    ['wheel', 'class']
    >>> searched_terms("where do i live rn")
    ['live']
    """
    return [t for t in terms(temporal.without_when(query)) if t not in lang.speech_terms()]


def rank(
    store: GraphStore, user_id: str, found: Gathered, *, k: int, now: int, min_relevance: float
) -> list[RecallHit]:
    """The ``k`` best cards from what ``gather`` found (module docstring, "Rank")."""
    held = found.held
    with held.lock:
        size = len(held.passages)
        lexical = scoring.lexical_relevance(found.bm25, found.best_possible)
        dense = scoring.dense_relevance(found.cosine, size)
        before, after = held.neighbours()
        relevance = scoring.fuse(lexical, dense, before, after) * found.passages
        if found.on_day is not None:  # "on May 4th": that day's turns, whatever their words
            relevance = days.on_the_day(relevance, found.on_day, 1 + scoring.NEIGHBOUR_SHARE)
            turns = np.zeros(size)
            for row in np.flatnonzero(found.on_day).tolist():
                turns[row] = held.passages[row].turn or 0
            opening = days.OPENING
            if not days.asks_only_the_day(found.query):  # "what did i say my a1c was"
                opening *= days.ASKED_SOMETHING
            relevance = days.openings_first(relevance, found.on_day, turns, opening)
        if found.by_assistant is not None and found.by_assistant.any():  # who said it
            if found.asks_the_assistant:
                relevance = _replies_count_as_asked(
                    relevance,
                    found.by_assistant,
                    before,
                    lambda row: not lang.asks_the_assistant(held.passages[row].text),
                )
                relevance = np.where(
                    found.by_assistant, relevance, relevance * scoring.OTHER_SPEAKER
                )
            else:
                relevance = np.where(found.by_assistant, relevance * scoring.ECHO, relevance)
        if "graph" in found.channels:
            relevance = relevance + _people(found, relevance)
            if not found.asks_the_assistant:  # what was suggested is no slot of the user's
                _answering(found, relevance)
            _introduced(found, relevance)
        relevance *= found.passages / scoring.MAX_RELEVANCE
        positive = np.flatnonzero(found.passages & (relevance > 0))
        order = (
            best_rows(relevance, positive, max(4 * k, 20))
            if len(positive)
            else np.flatnonzero(found.passages)[:k]
        )
        if found.asks_a_number:
            order = _numbers_first(held, relevance, order)
        elif found.asks_a_surname:
            order = _surnames_first(found, relevance, order)
        if found.asks_the_assistant and found.asks_a_thing and found.by_assistant is not None:
            order = _suggestions_first(held, found.by_assistant, relevance, order)
        picks = _pick_cards(found, order.tolist())
    if "graph" in found.channels and picks:
        picks = _with_abstractions(store, user_id, found, picks, relevance)
    return _score_cards(
        store,
        user_id,
        found,
        picks=picks,
        relevance=relevance,
        lexical=lexical,
        k=k,
        now=now,
        min_relevance=min_relevance,
    )


def _replies_count_as_asked(
    relevance: np.ndarray,
    by_assistant: np.ndarray,
    before: np.ndarray,
    asks: Callable[[int], bool] = lambda row: True,
) -> np.ndarray:
    """Asked what the assistant suggested, its reply to a request the question matches
    counts as that request does: "where did you suggest i propose?" shares its words
    with "where should i propose?", the reply after it ("shenzhen bay at sunset") holds
    the answer in words of its own. A turn that tells of what the assistant said before
    (``asks(row)`` false: ``lang.asks_the_assistant``) passes nothing on: the reply to
    "the ecg book you told me about is helping" names no book. Read for the
    ``_ASKED_READ`` best such turns.

    >>> _replies_count_as_asked(np.array([0.6, 0.1, 0.2]), np.array([False, True, True]),
    ...                         np.array([-1, 0, 1])).tolist()
    [0.6, 0.6, 0.2]
    """
    asked_before = np.append(~by_assistant, False)[before]  # row -1 reads False
    replies = np.flatnonzero(by_assistant & asked_before)
    raised = replies[relevance[before[replies]] > relevance[replies]]
    raised = raised[np.argsort(-relevance[before[raised]], kind="stable")[:_ASKED_READ]]
    raised = raised[[asks(int(before[row])) for row in raised]] if len(raised) else raised
    out = relevance.copy()
    out[raised] = relevance[before[raised]]
    return out


#: How many of the best-matching turns before a reply are read for whether they ask.
_ASKED_READ = 64


def best_rows(values: np.ndarray, rows: np.ndarray, n: int) -> np.ndarray:
    """The ``n`` of ``rows`` (ascending) with the highest ``values``, best first, ties in
    row order: what a stable argsort of every row would put first, without sorting a
    large user's every passage for the few a recall returns.

    >>> best_rows(np.array([0.5, 0.9, 0.5, 0.1]), np.arange(4), 2).tolist()
    [1, 0]
    """
    if len(rows) > n:
        kept = values[rows]
        nth = np.partition(kept, len(kept) - n)[len(kept) - n]
        rows = rows[kept >= nth]
    return rows[np.argsort(-values[rows], kind="stable")][:n]


def _people(found: Gathered, relevance: np.ndarray) -> np.ndarray:
    """Graph channel: what the people the query is about add to each passage."""
    held = found.held
    total = int(found.passages.sum())
    boost = np.zeros_like(relevance)
    top = float(relevance.max(initial=0.0)) or 1.0
    # Within a person's passages, the ones closer to the query gain more.
    closeness = 0.5 + 0.5 * relevance / top
    for mention in found.mentions:
        about = held.about(mention.key, found.cards)
        if mention.key != SELF:  # and the user's turns that name them ("小雨对芒果过敏")
            named = held.bm25.containing(terms(mention.name))
            if (word := _parent_word(mention)) is not None:  # "take mama to branson"
                named = np.union1d(named, held.bm25.containing(terms(word)))
            named = named[named < len(about)]
            if found.by_assistant is not None:  # the assistant echoes every name
                named = named[~found.by_assistant[named]]
            about[named] = True
            about &= found.passages
        weight = scoring.MENTION_WEIGHT * scoring.selectivity(int(about.sum()), total)
        boost += weight * closeness * about
        found.routes.append(("graph", about, f"{mention.via} -> {mention.name} -> card"))
    seen = {m.key for m in found.mentions} | {"me"}
    explained = {
        canonical_relationship(p.relationship)
        for p in found.people
        if p.key in seen and p.relationship
    }
    open_words = relationship_words(found.query) - explained
    others = [p for p in found.people if p.key not in seen]
    ahead = relevance + boost  # hop from the best passages, the people's counted
    best = best_rows(ahead, np.flatnonzero(ahead > 0), HOP_FROM).tolist()
    hops: dict[str, tuple[Mention, bool, str]] = {}
    for at in best:
        key = held.key(at)
        targeted = bool(open_words & relationship_words(key))
        via = found.mentions[0].name if found.mentions else held.passages[at].source[:8]
        for mention in find_mentions(key, others):
            if mention.key not in hops or targeted:
                hops[mention.key] = (mention, targeted, via)
    for key, (mention, targeted, via) in hops.items():
        about = held.about(key, found.cards)
        weight = scoring.HOP_WEIGHT * (1.0 if targeted else scoring.UNTARGETED_HOP)
        weight *= scoring.selectivity(int(about.sum()), total)
        boost += weight * closeness * about
        found.routes.append(("graph-hop", about, f"{via} -> mentions {mention.name} -> card"))
    return boost


#: Relationships one person holds, whose word in a turn names them.
_PARENTS = frozenset({"mother", "father"})


def _parent_word(mention: Mention) -> str | None:
    """The word a question calls a parent by ("where was i gonna take mama?"): the user's
    turns saying it are about the one person it names, though they never say her name."""
    said = mention.relationship_said
    return said if said is not None and canonical_relationship(said) in _PARENTS else None


def _names_whom_a_word_says(found: Gathered) -> bool:
    """A name asked of someone said by a relationship word only ("what's the dog
    called?", "我而家個 boss 叫咩名？"), not of a thing of someone named ("陳太太養的那隻狗叫
    什麼？": her dog's name) nor a surname."""
    return (
        found.asks_a_name
        and not found.asks_a_surname
        and all(m.relationship_said is not None for m in found.mentions)
    )


def _introduced(found: Gathered, relevance: np.ndarray) -> None:
    """ "Who's my girlfriend now?", "我现在的男朋友是谁？", "what's the dog called?": the
    card that told the user what the person the question names is to them (said at the
    relationship's ``since``: "update!! jess is officially my girlfriend") answers,
    whatever words it shares with the question; it counts as relevant as the best
    candidate (in place) and weighs as a card stating what a question asks
    (``temporal.ASKED``). Of several people a relationship names ("who is my roommate?":
    the one moving out, the new one), the one it was said of last. Asked about the past
    ("who was my manager before olga?", "who was i dating before marisol"), the one who
    last held the role of the person the question names and holds it no more (an ex, a
    former manager): the card said when they stopped, naming them ("me and alyssa broke
    up")."""
    who = lang.asks_who(found.query)
    if not found.mentions or not (who or _names_whom_a_word_says(found)):
        return
    held = found.held
    since = {p.key: p.since for p in found.people if p.key != SELF and p.since is not None}
    people = {p.key: p for p in found.people if p.key in since}
    if found.intent.kind == "past":
        named = _former_holders(found, people)
    else:
        # asked a name ("what's the dog called?"), only whom a relationship word names
        named = (
            [m for m in found.mentions if m.key in since and m.relationship_said is None]
            if who
            else []
        )
        related = [m for m in found.mentions if m.key in since and m.relationship_said is not None]
        if related:
            named.append(max(related, key=lambda m: since[m.key]))
    top = float(relevance.max(initial=0.0))
    said = found.cards
    if found.by_assistant is not None:  # what the user said, not the assistant's echo
        said = said & ~found.by_assistant[held.passage_of(np.arange(len(said)))]
    for mention in named:
        row = held.told(
            mention.key,
            mention.name,
            since[mention.key],
            said,
            said_as=people[mention.key].relationship if mention.key in people else None,
            or_before=found.intent.kind == "past",
        )
        if row is None:
            continue
        card = held.cards[row]
        relevance[card.passage] = max(relevance[card.passage], top)
        found.best_card[card.passage] = card.id
        found.answered.add(card.passage)
        found.introduced.add(card.id)
        reached = np.zeros(len(relevance), dtype=bool)
        reached[card.passage] = True
        found.routes.append(("graph", reached, f"{mention.via} -> {mention.name} -> said so"))


def _former_holders(found: Gathered, people: dict[str, Known]) -> list[Mention]:
    """The one who last held, and holds no more, the role of someone a past question
    names: a mention of them, for ``_introduced``."""
    roles = {role(people[m.key].relationship) for m in found.mentions if m.key in people}
    asked_around = {m.key for m in found.mentions}  # "before tasha": never tasha herself
    former = [
        p
        for p in people.values()
        if not is_current(p.relationship)
        and role(p.relationship) in roles - {None}
        and p.key not in asked_around
    ]
    if not former:
        return []
    last = max(former, key=lambda p: p.since or 0)
    return [Mention(last.key, last.name, f"formerly '{last.relationship}'")]


def _answering(found: Gathered, relevance: np.ndarray) -> None:
    """A question asking the value of an attribute ("where do I work?", "who is my
    therapist?", "what sport do I do?") is answered by the cards stating it, whatever
    words it shares with them ("Work is intense" shares more with the question than "I
    started at Northwind"): their passages count as relevant as the best candidate (in
    place), and the stating card is the one each offers. Where no card states a value
    but one says the value ended ("we broke up"), that card is the answer. Event dates
    ("when ...": any ``date:``), names and likes name no single slot and are left to
    ``temporal.ASKED``."""
    slots = tuple(a for a in found.intent.asks if not a.startswith(_NO_SLOT))
    if not slots:
        return
    held = found.held
    intent = replace(found.intent, asks=slots)
    rows = held.stating(slots, found.cards, mine=not intent.about)
    stated = [i for i in rows if temporal.states(held.cards[i].worth, intent)]
    past = intent.kind == "past"
    share = 1.0
    if past:  # "before", "used to": a value replaced, never today's
        answers = _replaced(held, stated)
        if not answers:  # none replaced: the turn that said today's value often says
            # what it replaced ("la 206 est morte ... j'ai pris un kangoo"); damped by
            # ``temporal.weight`` as what the question asks around, it ranks as the best
            answers, share = _agreeing(held, stated), 1 / temporal.PAST_CURRENT
    else:
        if not stated:  # nothing holds a value now: what ended it answers
            intent = replace(intent, yes_no=True)
            stated = [i for i in rows if temporal.states(held.cards[i].worth, intent)]
        answers = _agreeing(held, stated)
    if "city" in slots and (cities := _stating_the_city(held, answers, stated)):
        answers = cities  # and ``temporal.weight`` raises them alone, not the homes
        asks = tuple(a for a in found.intent.asks if a != "location")
        found.intent = replace(found.intent, asks=asks)
    if not intent.about:  # the user's own slots: what only similarity read joins in
        likely = _likely(found, slots, stated, past=past)
        if not answers and not past:  # a value a rule read answers first
            answers = likely
    if not answers:
        return
    top = float(relevance.max(initial=0.0)) * share
    reached: dict[str, set[int]] = {}
    for i in answers:
        card = held.cards[i]
        relevance[card.passage] = max(relevance[card.passage], top)
        found.best_card[card.passage] = card.id
        found.answered.add(card.passage)
        reached.setdefault(card.name, set()).add(card.passage)
    for name, passages in reached.items():
        found.routes.append(("graph", passages, f"asks {' / '.join(slots)} -> {name} -> card"))


def _likely(found: Gathered, slots: tuple[str, ...], stated: list[int], *, past: bool) -> list[int]:
    """The user's cards whose slot only similarity read (``algorithms.slots``: "got the
    keys to a little weatherboard cottage ... thornbury" is a location) and that were said after
    every card a rule read the slot in (``stated``): a current question's answers. A past
    question ("where did I live before?") is answered by none of them, and the newest
    reads as today's value (``Gathered.read_as``, as ``temporal.weight`` reads a claim;
    nothing is stored, and consolidation never reads these slots)."""
    held = found.held
    likely = held.stating(slots, found.cards, mine=True, column="likely_claim")
    stated_last = max((held.cards[i].timestamp for i in stated), default=-1)
    newer = [i for i in likely if held.cards[i].timestamp > stated_last]
    if past:
        newer = [max(newer, key=lambda i: held.cards[i].timestamp)] if newer else []
    for i in newer:
        found.read_as[held.cards[i].id] = {"claim": held.cards[i].worth.get("likely_claim")}
    return [] if past else newer


def _replaced(held: UserPassages, stated: list[int]) -> list[int]:
    """The superseded rows stating a value no current row states: the values a past
    question asks for. Every earlier value answers ("where did I work before?" after a
    job and an offer elsewhere), but not a card replaced by a later word of the same
    value (the offer from PaySetu, once the first week at PaySetu is said)."""
    now = {
        (held.cards[i].worth.get("claim"), held.cards[i].worth.get("claim_value"))
        for i in stated
        if held.cards[i].worth["status"] != "superseded"
    }
    return [
        i
        for i in stated
        if held.cards[i].worth["status"] == "superseded"
        and (held.cards[i].worth.get("claim"), held.cards[i].worth.get("claim_value")) not in now
    ]


def _agreeing(held: UserPassages, rows: list[int]) -> list[int]:
    """The rows whose slot (subject and attribute) memory holds one value of: where
    active cards disagree (a contradiction, a reverted change) nothing is known for
    sure, and the words decide as for any question."""
    slots: dict[str, list[int]] = {}
    for i in rows:
        slots.setdefault(str(held.cards[i].worth.get("claim")), []).append(i)
    kept = []
    for claim, members in slots.items():
        attribute = claim.partition("|")[2]
        values = {str(held.cards[i].worth.get("claim_value") or "") for i in members}
        if not any(values_conflict(attribute, a, b) for a in values for b in values):
            kept += members
    return kept


def _stating_the_city(held: UserPassages, rows: list[int], stated: list[int]) -> list[int]:
    """The rows stating the city: asked "which city do we live in?", a card stating it
    ("staying in toronto") answers before one naming only the flat or its neighbourhood
    ("moved into our place in leslieville"), said later or not; none where a home
    stated since says a move to another place ("we moved to denver", ``lang.moves_town``)."""
    cities = [i for i in rows if str(held.cards[i].worth.get("claim")).endswith("|city")]
    since = max((held.cards[i].timestamp for i in cities), default=0)
    moved = any(
        held.cards[i].timestamp > since and lang.moves_town(str(held.cards[i].worth.get("fact")))
        for i in stated
        if str(held.cards[i].worth.get("claim")).endswith("|location")
    )
    return [] if moved else cities


#: Attribute families that do not name one slot (see ``_answering``).
_NO_SLOT = ("date:", "name:", "likes:")


def _pick_cards(found: Gathered, order: list[int]) -> list[tuple[int, str]]:
    """Each passage's card to return: its best vector candidate among the eligible
    cards, else its newest eligible card. (Preferring the card whose fact holds most of
    the question's words was measured and not kept: on the English companion chats the
    answer in the top 5 facts went 68.2 -> 67.3 %, in the top one 36.4 -> 34.6 %.)"""
    held = found.held
    picks = []
    for at in order:
        card_id = found.best_card.get(at)
        if card_id is None:
            rows = [i for i in held.members(at) if found.cards[i]]
            if not rows:
                continue
            card_id = held.cards[max(rows, key=lambda i: held.cards[i].timestamp)].id
        picks.append((at, card_id))
    return picks


def _with_abstractions(
    store: GraphStore,
    user_id: str,
    found: Gathered,
    picks: list[tuple[int, str]],
    relevance: np.ndarray,
) -> list[tuple[int, str]]:
    """Cards summarised together with the best hits join (``ABSTRACTION_WEIGHT``)."""
    held = found.held
    rows = store.run(
        "abstraction_siblings",
        {
            "user_id": user_id,
            "ids": [c for _, c in picks[:5]],
            "statuses": found.statuses,
            "at": found.at,
        },
    )
    taken = {card_id for _, card_id in picks}
    shown = {at for at, _ in picks}  # a passage shows one card: the one picked for it
    added = []
    with held.lock:
        for row in rows:
            i = held.card_row(row["id"])
            via = held.card_row(row["via"])
            if i is None or via is None or row["id"] in taken or not found.cards[i]:
                continue
            at, source = held.cards[i].passage, held.cards[via].passage
            if at in shown:
                continue
            shown.add(at)
            gain = scoring.ABSTRACTION_WEIGHT * relevance[source]
            relevance[at] = max(relevance[at], gain)
            taken.add(row["id"])
            added.append((at, row["id"]))
            found.routes.append(
                (
                    "abstraction",
                    {at},
                    f"card {row['via'][:8]} -> abstraction {row['abstraction'][:8]}",
                )
            )
    return picks + added


def _on_focus(found: Gathered, rows: list[int]) -> dict[int, bool]:
    """Per passage row, whether it or a neighbouring turn says a word of what the query
    asks beyond who it is about: "what's Luis's wife's name?" is not answered by "Luis and
    I are doing it", however close the two are in meaning (the name carries the cosine).
    Said, not only searchable: a passage's key adds who its people are to the user
    ("grace" -> "wife"), while a relationship the query asks beyond whom it points at is
    someone else's (Luis's wife). And of whom the query asks it: "my wife grace" says
    "wife" but nothing of Luis; a turn that neither names nor sits beside one naming whom
    the question is about answers another's question."""
    if not found.focus:
        return dict.fromkeys(rows, True)
    held = found.held
    before, after = held.neighbours()
    near = {row: [r for r in (row, int(before[row]), int(after[row])) if r >= 0] for row in rows}
    keyed = held.bm25.coverage(found.focus, {r for rs in near.values() for r in rs})
    asked = set(found.focus)
    said = {
        r for r, share in keyed.items() if share > 0 and asked & set(terms(held.passages[r].head))
    }
    about = {m.key for m in found.mentions if m.key != SELF}
    whom = terms(" ".join(w for p in found.people if p.key in about for w in pointer_phrases(p)))
    named = held.bm25.coverage(whom, keyed) if whom else dict.fromkeys(keyed, 1.0)
    return {
        row: any(r in said for r in near[row]) and any(named[r] > 0 for r in near[row])
        for row in rows
    }


def _score_cards(
    store: GraphStore,
    user_id: str,
    found: Gathered,
    *,
    picks: list[tuple[int, str]],
    relevance: np.ndarray,
    lexical: np.ndarray,
    k: int,
    now: int,
    min_relevance: float,
) -> list[RecallHit]:
    """Read the picked cards, mix in what each is worth, keep the ``k`` best."""
    held = found.held
    relationship_now = {p.key: p.relationship for p in found.people}
    floor = min(found.cosine.values(), default=scoring.COS_UNRELATED)
    picked = [at for at, _ in picks]
    with held.lock:
        on_focus = _on_focus(found, picked)
        asked = held.bm25.coverage(found.searched, picked)
    echoes = None if found.asks_the_assistant else found.by_assistant
    scored: list[tuple[float, str, int, float, dict[str, float]]] = []
    fields: dict[str, dict[str, Any]] = {}
    with held.lock:
        for at, card_id in picks:
            calibrated = scoring.calibrated(asked[at], found.cosine.get(at, floor))
            if not on_focus[at]:
                calibrated *= scoring.OFF_FOCUS
            if echoes is not None and echoes[at]:  # the assistant's echo of what the user lives
                calibrated *= scoring.ECHO
            if at in found.answered:
                calibrated = max(calibrated, scoring.RELEVANT)
            if found.on_day is not None:  # the named day is what the question asks about
                calibrated = (
                    max(calibrated, scoring.RELEVANT)
                    if found.on_day[at]
                    else calibrated * days.OTHER_DAY
                )
            row = held.card_row(card_id)
            if calibrated < min_relevance or row is None:
                continue
            worth = held.cards[row].worth | found.read_as.get(card_id, {})
            parts = scoring.final_score(float(relevance[at]), worth, now)
            score = parts.pop("score")
            if found.on_day is not None and found.on_day[at] and worth["status"] == "superseded":
                score /= scoring.SUPERSEDED_FACTOR  # said on the asked day: it held then
            turn = held.passages[at].text
            if (factor := temporal.weight(found.intent, worth, turn)) != 1.0:
                parts["temporal"] = factor
                score *= factor
            if card_id in found.introduced:  # as a card stating an asked slot weighs
                parts["told"] = temporal.ASKED
                score *= temporal.ASKED
            parts["lexical"] = float(lexical[at])
            parts["cosine"] = float(found.cosine.get(at, 0.0))
            scored.append((score, card_id, at, calibrated, parts))
            fields[card_id] = worth
    scored.sort(key=lambda hit: (-hit[0], hit[1]))
    if found.surname_given is not None and scored:
        given = next((hit for hit in scored if hit[2] == found.surname_given), None)
        if given is not None and given[0] >= scored[0][0] * scoring.NEAR_TIE:
            scored.remove(given)
            scored.insert(0, given)
    scored = temporal.predecessors_first(found.intent, scored, fields)

    def said(hit: tuple[float, str, int, float, dict[str, float]]) -> int:
        """The day the hit was said on: what one day said is equally new."""
        return (held.passages[hit[2]].when or int(fields[hit[1]]["timestamp"])) // scoring.DAY_MS

    if lang.asks_if_still(found.query) or _newest_answers(found, scored):
        scored = temporal.first_in_time(scored, said, newest=True, share=temporal.STILL_SHARE)
    elif found.intent.kind == "past":
        scored = temporal.first_in_time(scored, said, newest=False, share=temporal.PAST_SHARE)
    if found.intent.kind != "past":
        scored = temporal.corrections_first(
            scored, said, lambda hit: lang.corrects(held.passages[hit[2]].text)
        )
    best: list[tuple[float, str, int, float, dict[str, float]]] = []
    rows: dict[str, Row] = {}
    # At a point in time a card read back may not have been held then: read on.
    for start in range(0, len(scored), k):
        chunk = scored[start : start + k]
        for read in _read_cards(store, user_id, found.at, [hit[1] for hit in chunk]):
            rows[read["card"]["id"]] = read
        best += [hit for hit in chunk if hit[1] in rows][: k - len(best)]
        if len(best) >= k or found.at is None:
            break
    gives = (
        lang.holds_a_number
        if found.asks_a_number
        else _gives_a_surname(found)
        if found.asks_a_surname
        else lang.holds_a_name
        if found.asks_a_name
        else None
    )
    shown = _whole(store, user_id, found, best)
    if gives:
        shown |= _giving(store, user_id, found, best, rows, gives=gives, shown=shown)
    hits = []
    for score, card_id, at, calibrated, parts in best:
        if card_id not in rows:  # deleted since the passages were read
            continue
        card = card_from_row(shown.get(card_id, rows[card_id]))
        graph, paths = found.reached(at)
        if found.bm25[at] > 0:
            graph.add("fulltext")
        if at in found.cosine:
            graph.add("vector")
        found_by = sorted(graph)
        # Built from validated parts: validating again would re-derive the card (~50 us).
        hits.append(
            RecallHit.model_construct(
                card=card,
                score=score,
                relevance=calibrated,
                parts=parts,
                found_by=found_by,
                paths=paths,
                relationship=relationship_now.get(person_key(card.person)),
            )
        )
    return hits


def _newest_answers(found: Gathered, scored: list[Any]) -> bool:
    """A question about now that no claim answers ("how many stores are we on now?",
    "how is halmeoni now?"): the newest of the hits near the best says it. A name or a
    surname asked is answered where it was given, not where it was last said."""
    return (
        found.intent.kind == "current"
        and bool(scored)
        and not temporal.raised(scored[0])
        and not found.asks_a_name
        and not found.asks_a_surname
    )


def _first_that(
    relevance: np.ndarray, order: np.ndarray, answers: Callable[[int], bool], share: float
) -> np.ndarray:
    """``order`` re-sorted once each candidate that cannot answer (``answers`` is false)
    counts for ``share`` of its relevance (in place)."""
    for at in order.tolist():
        if not answers(at):
            relevance[at] *= share
    return order[np.argsort(-relevance[order], kind="stable")]


def _numbers_first(held: UserPassages, relevance: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Asked how many or how much, a candidate turn that gives no number counts for
    ``scoring.NO_NUMBER`` of its relevance (in place): "I signed up for a pottery class"
    shares the question's words, "there are about eight of us in the class" answers it."""
    return _first_that(
        relevance, order, lambda at: lang.holds_a_number(held.passages[at].text), scoring.NO_NUMBER
    )


def _suggestions_first(
    held: UserPassages, by_assistant: np.ndarray, relevance: np.ndarray, order: np.ndarray
) -> np.ndarray:
    """Asked which book, app or place the assistant suggested, a candidate reply that
    names or suggests nothing (``lang.suggests_something``) counts for
    ``scoring.NO_SUGGESTION`` of its relevance (in place): "What a good unnie! Leave her a
    little care sheet" shares "dog" with "what was that dog book you told me about",
    "for a great read, try 'The Other End of the Leash'" answers it."""

    def answers(at: int) -> bool:
        return not by_assistant[at] or lang.suggests_something(held.passages[at].text)

    return _first_that(relevance, order, answers, scoring.NO_SUGGESTION)


def _gives_a_surname(found: Gathered) -> Callable[[str], bool]:
    """Whether a text gives the surname a question asks: by its words
    (``lang.gives_a_surname``) or by a name the question asks about written with another
    after it ("Megan Hollis"), and naming whom the question asks about ("no more late
    night maggi" gives no one's)."""
    firsts = [m.name.split()[0] for m in found.mentions if m.key != SELF and m.name]
    written = (
        re.compile(rf"\b(?:{'|'.join(re.escape(f) for f in firsts)})\s+[A-Z][a-z]+")
        if firsts
        else None
    )
    about = [first.lower() for first in firsts]  # "Megan Castillo" was Megan Hollis

    def gives(text: str) -> bool:
        named = not about or any(name in text.lower() for name in about)
        return named and bool(lang.gives_a_surname(text) or (written and written.search(text)))

    return gives


def _surnames_first(found: Gathered, relevance: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Asked someone's surname, a candidate turn that gives none counts for
    ``scoring.NO_SURNAME`` of its relevance (in place): "my sister rachel is getting
    married in april" shares the question's words, "so rachel is officially mrs adeyemi
    now" answers it (``_gives_a_surname``). Of those, the one said last answers (the name
    now), asked about the past the one said first ("no more rachel marsh", said before the
    wedding): it counts as relevant as the best candidate, and is shown first where it
    scores within ``scoring.NEAR_TIE`` of the best (``_score_cards``)."""
    held = found.held
    gives = _gives_a_surname(found)
    giving = []
    for at in order.tolist():
        if gives(held.passages[at].text):
            giving.append(at)
        else:
            relevance[at] *= scoring.NO_SURNAME
    if giving:
        said = {at: held.passages[at].when or 0 for at in giving}
        pick = (min if found.intent.kind == "past" else max)(giving, key=lambda at: said[at])
        relevance[pick] = max(relevance[pick], float(relevance[order].max()))
        found.answered.add(pick)
        if found.by_assistant is None or not found.by_assistant[pick]:
            found.surname_given = pick  # not "Welcome back, Mrs Kershaw!": an echo
    return order[np.argsort(-relevance[order], kind="stable")]


def _whole(
    store: GraphStore,
    user_id: str,
    found: Gathered,
    best: list[tuple[float, str, int, float, dict[str, float]]],
) -> dict[str, Row]:
    """A hit read from part of a turn shows the turn kept whole (``models.TURN``): a part
    alone often names nothing ("first shift is thursday", "also we named the boat") while
    the turn holds what the question asks; of a turn longer than a piece, the piece
    that holds the part. Scores stay the part's: it is what matched. Hit card id -> row
    to show."""
    held = found.held
    with held.lock:
        whole: dict[str, list[str]] = {}
        for _, card_id, at, _, _ in best:
            turn = [
                held.cards[i].id
                for i in held.members(at)
                if found.cards[i] and TURN in held.cards[i].tags
            ]
            if turn and card_id not in turn:
                whole[card_id] = turn
    if not whole:
        return {}
    ids = [*whole, *(i for pieces in whole.values() for i in pieces)]
    read = {r["card"]["id"]: r for r in _read_cards(store, user_id, found.at, ids)}
    shown = {}
    for card_id, pieces in whole.items():
        holding = next(
            (read[i] for i in pieces if i in read and _holds_part(read[i], read.get(card_id))),
            None,
        )
        if holding is not None:
            shown[card_id] = holding
    return shown


def _holds_part(whole: Row, part: Row | None) -> bool:
    """Whether a turn's piece kept whole holds the part a hit was read from: a turn
    longer than a piece is kept in several, and the first of them may end before it
    ("... it's big.mike.tane@gmail.com" in the second). Without spans, it is taken to."""
    held, said = (whole.get("evidence") or {}), ((part or {}).get("evidence") or {})
    spans = [(e.get("span_start"), e.get("span_end")) for e in (held, said)]
    (start, end), (inner_start, inner_end) = spans
    if start is None or end is None or inner_start is None or inner_end is None:
        return True
    return bool(start <= inner_start and inner_end <= end)


def _giving(
    store: GraphStore,
    user_id: str,
    found: Gathered,
    best: list[tuple[float, str, int, float, dict[str, float]]],
    rows: dict[str, Row],
    *,
    gives: Callable[[str], bool],
    shown: Collection[str] = (),
) -> dict[str, Row]:
    """For a question asking a number or a name ("how many people are in my book club?",
    "what's our dog's name?"): a hit whose fact gives none shows instead a card of its
    turn that does ("there are 7 of us", "her name is Penny"), the turn having been
    ranked for the question; hits ``shown`` otherwise already (their turn kept whole) are
    left as they are. Hit card id -> row to show."""
    held = found.held
    lacking = {
        card_id: at
        for _, card_id, at, _, _ in best
        if card_id in rows and card_id not in shown and not gives(rows[card_id]["card"]["fact"])
    }
    taken = {card_id for _, card_id, _, _, _ in best}
    with held.lock:
        siblings = {
            card_id: [
                held.cards[i].id
                for i in held.members(at)
                if found.cards[i] and held.cards[i].id not in taken
            ]
            for card_id, at in lacking.items()
        }
    wanted = [i for ids in siblings.values() for i in ids]
    if not wanted:
        return {}
    read = {r["card"]["id"]: r for r in _read_cards(store, user_id, found.at, wanted)}
    instead: dict[str, Row] = {}
    for card_id, ids in siblings.items():
        giving = [read[i] for i in ids if i in read and gives(read[i]["card"]["fact"])]
        if giving:
            instead[card_id] = giving[0]
    return instead


def _read_cards(
    store: GraphStore, user_id: str, at: dict[str, int] | None, ids: list[str]
) -> list[dict[str, Any]]:
    """``get_cards`` rows; at a point in time, as memory then held them (the rest left out)."""
    rows = store.run("get_cards", {"user_id": user_id, "ids": ids})
    return rows if at is None else held_at(store, user_id, rows, **at)


def _scoped_keys(filters: RecallFilters, people: list[Known]) -> set[str] | None:
    """Person keys allowed by the person/relationship filters (None: no such filter)."""
    keys: set[str] | None = None
    if filters.person:
        keys = {person_key(filters.person)}
    if filters.relationship:
        wanted = canonical_relationship(filters.relationship)
        by_relation = {
            p.key
            for p in people
            if p.relationship and canonical_relationship(p.relationship) == wanted
        }
        keys = by_relation if keys is None else keys & by_relation
    return keys
