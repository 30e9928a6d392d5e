"""What recall matches a question against: passages, held in this process per user.

A conversation turn is the unit people ask about ("when did Melanie paint a sunrise?"), and
extraction cuts it into clause-sized cards that lose its context ("She loves Ethiopian food
though"). So recall ranks **passages**: a source turn (or document passage) together with
every card that came from it; a card written without a source is a passage of its own.
Hits are still cards: the best card of each passage, with its provenance.

A passage's searchable text (its *key*) is the turn as said, dated and attributed, plus what
extraction learnt that the words do not say: who its cards are about and how the user
relates to them (LongMemEval, ICLR 2025: "fact-augmented keys")::

    [17 October 2023] user: whenever we go out, she insists on spanakopita  Hana landlady

Cards without a source are keyed by their date, person, relationship, fact and backstory.

Each process keeps, per user it recalls for, the passages with a BM25 index over their keys
(``graphmem.recall.lexical``) and what the filters need of each card (status, person,
category, tags, time), so filters narrow candidates before anything is ranked. It stays
current the way the vector mirror does (``graphmem.recall.mirror``): every card write
stamps the user's ``revision``, a hard delete counts ``deletions``; recall reads both
counters in the lookup it makes anyway and reads the cards stamped since (a deletion or a
counter that went back reloads the user). Loading reads text only, in the recall that
first needs it, once per user and process (its cost: docs/design.md, "Figures"); given a
directory, the index saves what it loaded there, and the next process starts from that
file and reads only the cards stamped since (``PassageIndex``).
"""

from __future__ import annotations

import gc
import hashlib
import itertools
import logging
import marshal
import os
import sys
import threading
from collections import OrderedDict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.cards import person_key
from graphmem.models import SELF, Category, Status
from graphmem.recall.days import day_of
from graphmem.recall.jobs import UserJobs
from graphmem.recall.lexical import BM25, terms
from graphmem.store.base import GraphStore

log = logging.getLogger(__name__)

#: cards read per query while loading or catching up. Each page scans and sorts the
#: user's cards in the store, so fewer pages load a large user faster: 100k cards took
#: 10.6 s in pages of 10,000 against 20.8 s in pages of 2,000 (10k cards: 0.8-1.0 s
#: against 0.9-1.1 s); a page of 10,000 costs the client ~6 MB more while it is read
#: (tracemalloc peak, 1.3 MB for 2,000).
PAGE = 10_000
#: cards held over all users; least recently recalled users go first (and come back from
#: their saved file). A card costs ~3 kB here (tracemalloc, a 10k-card user of
#: bench/cold.py: 29.5 MB with every derived array built), so 100k cards is ~300 MB.
BUDGET_CARDS = 100_000

#: a user's passages are saved (``PassageIndex(directory=...)``) once this many cards
#: were read since the last save: a new process then reads only the cards stamped since
SAVE_AFTER = 500
#: the saved files' layout (marshal of plain values: loading runs no code)
SNAPSHOT_FORMAT = 2  # 2: a passage keeps when it was said (days named in questions)

#: card fields scoring.final_score, temporal.weight and point-in-time recall read
_WORTH = (
    "importance",
    "confidence",
    "reward",
    "valid_from",
    "valid_to",
    "created_at",
    "updated_at",
    "claim",
    "claim_value",
    "fact",
    "person",
    "relationship",
)
_CODES = {status.value: code for code, status in enumerate(Status)}
#: where a card's claim and fact are in ``_Card.values`` (its status, then ``_WORTH``)
_CLAIM = 1 + _WORTH.index("claim")
_FACT = 1 + _WORTH.index("fact")


def day(ms: int | None) -> str:
    """A date as people write it, for passage keys.

    >>> day(1683554160000)
    '8 May 2023'
    """
    if ms is None:
        return ""
    moment = datetime.fromtimestamp(ms / 1000, UTC)
    return f"{moment.day} {moment.strftime('%B %Y')}"


@dataclass(slots=True)
class _Card:
    id: str
    passage: int
    status: int
    person: str  # key
    name: str
    relationship: str | None
    category: str
    tags: frozenset[str]
    timestamp: int
    #: the card's status as stored, then its ``_WORTH`` fields (None: not set)
    values: tuple[Any, ...]

    @property
    def worth(self) -> dict[str, Any]:
        """What scoring.final_score reads besides the relevance (made when asked: a
        user's cards are loaded far more often than each is scored)."""
        worth = {"timestamp": self.timestamp, "status": self.values[0]}
        worth.update((f, v) for f, v in zip(_WORTH, self.values[1:], strict=True) if v is not None)
        return worth


@dataclass(slots=True)
class _Passage:
    source: str  # source id, or "card:<id>" for a card without a source
    session: str | None
    turn: int | None
    head: str  # the dated, attributed text
    text: str  # the words said, for "is this already in the text?" checks
    speaker: str | None = None
    when: int | None = None  # when it was said (the session's date, else the card's time)


class UserPassages:
    """One user's passages and cards, as of ``revision`` (see the module docstring).

    Not thread-safe on its own: hold ``lock`` while reading or applying.
    """

    def __init__(self, revision: int, deletions: int) -> None:
        self.revision = revision
        self.deletions = deletions
        self.lock = threading.RLock()
        self.passages: list[_Passage] = []
        self.cards: list[_Card] = []
        self._card_at: dict[str, int] = {}
        self._passage_at: dict[str, int] = {}
        self._members: list[list[int]] = []  # passage -> card rows
        self.bm25 = BM25()
        self._arrays: dict[str, np.ndarray] | None = None
        self._neighbours: tuple[np.ndarray, np.ndarray] | None = None
        self._by_person: dict[str, np.ndarray] | None = None
        self._by_claim: dict[str, list[int]] | None = None
        self._days: np.ndarray | None = None
        self._speakers: set[str] | None = None

    def __len__(self) -> int:
        return len(self.cards)

    # -- keeping current -----------------------------------------------------------------
    def apply(
        self,
        rows: Iterable[dict[str, Any]],
        sources: dict[str, dict[str, Any]],
        relationships: dict[str, str | None],
    ) -> None:
        """Take in ``recall_passages`` rows (new cards, and cards that changed), with the
        ``recall_sources`` rows of their sources by id and the user's relationship to
        each person now (by person key)."""
        touched: set[int] = set()
        for row in rows:
            source = row["source"] or f"card:{row['id']}"
            at = self._passage_at.get(source)
            if at is None:
                at = len(self.passages)
                self._passage_at[source] = at
                self.passages.append(_passage(source, row, sources.get(row["source"])))
                self._members.append([])
            key = person_key(row["person"] or SELF)
            card = _Card(
                row["id"],
                at,
                _CODES.get(row["status"], -1),
                key,
                row["person"] or SELF,
                relationships.get(key) or row["relationship"],
                row["category"] or Category.OTHER.value,
                frozenset(row["tags"] or ()),
                int(row["timestamp"] or 0),
                (row["status"], *(row[f] for f in _WORTH)),
            )
            i = self._card_at.get(card.id)
            if i is None:
                self._card_at[card.id] = len(self.cards)
                self.cards.append(card)
                self._members[at].append(len(self.cards) - 1)
            else:
                old = self.cards[i].passage
                if old != at:
                    self._members[old].remove(i)
                    self._members[at].append(i)
                    touched.add(old)
                self.cards[i] = card
            touched.add(at)
        for at in touched:
            self.bm25.put(at, terms(self.key(at)))
        if touched:
            self._arrays = None
            self._neighbours = None
            self._by_person = None
            self._by_claim = None
            self._days = None
            self._speakers = None

    def snapshot(self) -> dict[str, Any]:
        """Everything held, as plain values (for ``PassageIndex`` to persist); hold
        ``lock``. The lexical index goes as its terms and postings, not its text."""
        return {
            "revision": self.revision,
            "deletions": self.deletions,
            "passages": [
                (p.source, p.session, p.turn, p.head, p.text, p.speaker, p.when)
                for p in self.passages
            ],
            "cards": [
                (
                    c.id,
                    c.passage,
                    c.status,
                    c.person,
                    c.name,
                    c.relationship,
                    c.category,
                    tuple(c.tags),
                    c.timestamp,
                    c.values,
                )
                for c in self.cards
            ],
            "bm25": self.bm25.state(),
        }

    @classmethod
    def from_snapshot(cls, state: dict[str, Any]) -> UserPassages:
        """The passages ``snapshot`` described (no key is tokenised again)."""
        held = cls(state["revision"], state["deletions"])
        held.passages = list(itertools.starmap(_Passage, state["passages"]))
        held._passage_at = {p.source: at for at, p in enumerate(held.passages)}
        members: list[list[int]] = [[] for _ in held.passages]
        (ids, passages, status, person, name, relationship, category, tags, when, values) = (
            zip(*state["cards"], strict=True) if state["cards"] else ((),) * 10
        )
        none: frozenset[str] = frozenset()
        tagged = [frozenset(t) if t else none for t in tags]
        held.cards = list(
            map(
                _Card,
                ids,
                passages,
                status,
                person,
                name,
                relationship,
                category,
                tagged,
                when,
                values,
            )
        )
        for i, at in enumerate(passages):
            members[at].append(i)
        held._members = members
        held._card_at = {card_id: i for i, card_id in enumerate(ids)}
        held.bm25 = BM25.from_state(state["bm25"])
        return held

    def sources_known(self) -> set[str]:
        """Ids of the sources held already (their text is not read again)."""
        return set(self._passage_at)

    def key(self, at: int) -> str:
        """The searchable text of passage ``at`` (see the module docstring)."""
        passage = self.passages[at]
        said = passage.text.lower()
        extra: list[str] = []
        for i in self._members[at]:
            card = self.cards[i]
            for word in (card.name, card.relationship):
                if word and word not in (SELF, "self") and word.lower() not in said:
                    said += " " + word.lower()
                    extra.append(word)
        return " ".join([passage.head, *extra])

    # -- reading -------------------------------------------------------------------------
    def card_ids(self, rows: Iterable[int]) -> list[str]:
        return [self.cards[i].id for i in rows]

    def card_row(self, card_id: str) -> int | None:
        return self._card_at.get(card_id)

    def members(self, at: int) -> list[int]:
        """Card rows of passage ``at``."""
        return self._members[at]

    def eligible(
        self,
        statuses: Collection[str],
        *,
        people: Collection[str] | None = None,
        categories: Collection[str] | None = None,
        tags: Collection[str] | None = None,
        since: int | None = None,
        until: int | None = None,
        card_ids: Collection[str] | None = None,
        at: dict[str, int] | None = None,
    ) -> np.ndarray:
        """Which cards (a boolean row mask) pass every filter given; ``at``
        (``{"as_of", "known_at"}``): only cards memory may have held then (the test of
        ``exact_vector_search``'s ``$at``; the caller checks each against its history)."""
        a = self._columns()
        mask = np.isin(a["status"], [_CODES[s] for s in statuses if s in _CODES])
        if people is not None:
            mask &= np.isin(a["person"], list(people))
        if categories is not None:
            mask &= np.isin(a["category"], list(categories))
        if tags is not None:
            wanted = set(tags)
            mask &= np.fromiter((bool(c.tags & wanted) for c in self.cards), bool, len(self.cards))
        if since is not None:
            mask &= a["timestamp"] >= since
        if until is not None:
            mask &= a["timestamp"] <= until
        if card_ids is not None:
            rows = [i for c in card_ids if (i := self._card_at.get(c)) is not None]
            only = np.zeros(len(self.cards), dtype=bool)
            only[rows] = True
            mask &= only
        if at is not None:
            mask &= np.fromiter(
                (_maybe_held(c.worth, **at) for c in self.cards), bool, len(self.cards)
            )
        return mask

    def passages_of(self, card_mask: np.ndarray) -> np.ndarray:
        """Passages (a boolean mask) with at least one card of ``card_mask``."""
        out = np.zeros(len(self.passages), dtype=bool)
        out[self._columns()["passage"][card_mask]] = True
        return out

    def about(self, key: str, card_mask: np.ndarray) -> np.ndarray:
        """Passages with a card of ``card_mask`` about the person ``key``."""
        rows = self._people().get(key)
        out = np.zeros(len(self.passages), dtype=bool)
        if rows is not None:
            rows = rows[card_mask[rows]]
            out[self._columns()["passage"][rows]] = True
        return out

    def _people(self) -> dict[str, np.ndarray]:
        """Card rows about each person key."""
        if self._by_person is None:
            rows: dict[str, list[int]] = {}
            for i, card in enumerate(self.cards):
                rows.setdefault(card.person, []).append(i)
            self._by_person = {k: np.array(v, dtype=np.int64) for k, v in rows.items()}
        return self._by_person

    def stating(self, attributes: tuple[str, ...]) -> list[int]:
        """Card rows whose stored claim is of one of ``attributes`` (prefixes: "employer",
        "preferred ", "my manager"), whoever it is about."""
        if self._by_claim is None:
            by_claim: dict[str, list[int]] = {}
            for i, card in enumerate(self.cards):
                claim = str(card.values[_CLAIM] or "")
                if claim:
                    by_claim.setdefault(claim.partition("|")[2], []).append(i)
            self._by_claim = by_claim
        return [i for a, rows in self._by_claim.items() if a.startswith(attributes) for i in rows]

    def said_on(self) -> np.ndarray:
        """Per passage, the day it was said (``days.day_of``; date.min when unknown);
        kept until the passages change (``apply`` drops it)."""
        if self._days is None:
            self._days = np.array(
                [date.min if p.when is None else day_of(p.when) for p in self.passages],
                dtype=object,
            )
        return self._days

    def user_speakers(self) -> set[str]:
        """Person keys of the names the user speaks under in their conversations: the
        speakers of turns that gave cards about the user in the speaker's own words
        (extraction files another speaker's first person under that speaker, and quotes
        what another speaker says of the user as "<speaker> said: ..."). Kept until the
        passages change."""
        if self._speakers is not None:
            return self._speakers
        rows = self._people().get(person_key(SELF))
        speakers: set[str] = set()
        for row in () if rows is None else rows.tolist():
            card = self.cards[int(row)]
            speaker = self.passages[card.passage].speaker
            if not speaker or person_key(speaker) == SELF:
                continue
            if not str(card.values[_FACT] or "").startswith(f"{speaker} said:"):
                speakers.add(person_key(speaker))
        self._speakers = speakers
        return speakers

    def people_in(self, passages: Iterable[int]) -> set[str]:
        """Person keys the cards of ``passages`` are about."""
        return {self.cards[i].person for at in passages for i in self._members[at]}

    def passage_of(self, card_rows: np.ndarray) -> np.ndarray:
        return self._columns()["passage"][card_rows]

    def neighbours(self) -> tuple[np.ndarray, np.ndarray]:
        """The previous and next passage of each passage in its session (-1: none)."""
        if self._neighbours is None:
            before = np.full(len(self.passages), -1, dtype=np.int64)
            after = before.copy()
            order = sorted(
                (i for i, p in enumerate(self.passages) if p.session is not None),
                key=lambda i: (self.passages[i].session, self.passages[i].turn or 0),
            )
            for a, b in itertools.pairwise(order):
                if self.passages[a].session == self.passages[b].session:
                    after[a], before[b] = b, a
            self._neighbours = (before, after)
        return self._neighbours

    def _columns(self) -> dict[str, np.ndarray]:
        if self._arrays is None:
            cards = self.cards
            self._arrays = {
                "status": np.array([c.status for c in cards], dtype=np.int8),
                "person": np.array([c.person for c in cards], dtype=object),
                "category": np.array([c.category for c in cards], dtype=object),
                "timestamp": np.array([c.timestamp for c in cards], dtype=np.int64),
                "passage": np.array([c.passage for c in cards], dtype=np.int64),
            }
        return self._arrays


def _maybe_held(card: dict[str, Any], *, as_of: int, known_at: int) -> bool:
    """Could memory have held this card true at ``as_of``, knowing what it knew by
    ``known_at``? (A card changed since is kept: its history decides.)"""
    if (card.get("created_at") or 0) > known_at:
        return False
    if (card.get("updated_at") or 0) > known_at:
        return True
    valid_from = card.get("valid_from")
    valid_from = card["timestamp"] if valid_from is None else valid_from
    valid_to = card.get("valid_to")
    return (
        card["status"] != "forgotten"
        and valid_from <= as_of
        and (valid_to is None or valid_to > as_of)
    )


def _passage(source: str, row: dict[str, Any], said: dict[str, Any] | None) -> _Passage:
    if said is None:  # a card of its own: who, what, how it came up
        who = "I" if (row["person"] or SELF) == SELF else row["person"]
        rel = row["relationship"]
        rel = f" ({rel})" if rel and rel != "self" else ""
        text = " ".join(filter(None, [f"{who}{rel}: {row['fact']}", row["backstory"]]))
        return _Passage(
            source, None, None, f"[{day(row['timestamp'])}] {text}", text, when=row["timestamp"]
        )
    speaker = said["speaker"] or said["document"] or ""
    when = said["session_date"] if said["session_date"] is not None else row["timestamp"]
    text = said["text"] or row["fact"]
    head = f"[{day(when)}] {speaker}: {text}" if speaker else f"[{day(when)}] {text}"
    return _Passage(
        source,
        said["session"] or said["document"],
        said["turn"],
        head,
        text,
        said["speaker"],
        when,
    )


#: Bump when ``lexical.terms`` changes for text the probe below does not cover (another
#: script, a language module): saved passages made before are then rebuilt once.
TERMS_VERSION = "1"
#: English, accented Latin and Chinese (bigrams: nothing to load). A script whose
#: segmenter loads lazily stays out of it (every process that restores a user would load
#: it): a change there bumps ``TERMS_VERSION``.
_PROBE = (
    "When did Melanie paint the sunrise? She's painting again, don't ask what's Jo's: 3 times in "
    "2023 at the café Zoë runs. Ça va très bien, über München. 我妹妹对花生过敏，上周搬到深圳了。"
)


def terms_version() -> str:
    """Which tokenisation a saved lexical index was made with: ``TERMS_VERSION`` and a
    hash of ``terms`` of a probe text, so that a change to ``terms`` (a stemmer, stop
    words, word splitting) rebuilds saved passages once."""
    said = "\x1f".join(terms(_PROBE)).encode()
    return f"{TERMS_VERSION}-{hashlib.blake2b(said, digest_size=8).hexdigest()}"


class PassageIndex:
    """The passages of the users this process recalls for, each kept current.

    With a ``directory``, each user's passages are also saved there (in the background,
    once ``save_after`` cards were read since the last save) and a process that has not
    read a user yet starts from the saved passages, then reads only the cards stamped
    since: its first recall does not read, nor tokenise, every card. A saved file counts
    only while the store's counters agree (a hard delete, or a counter that went back,
    rebuilds it), and only for the tokenisation it was made with (``terms_version``).
    """

    def __init__(
        self,
        store: GraphStore,
        *,
        budget_cards: int = BUDGET_CARDS,
        directory: Path | None = None,
        save_after: int | None = None,
    ) -> None:
        self._store = store
        self._budget = budget_cards
        self._lock = threading.Lock()
        self._users: OrderedDict[str, UserPassages] = OrderedDict()
        self._loading: dict[str, threading.Lock] = {}
        self._reading: dict[str, threading.RLock] = {}
        self._directory = directory
        self._save_after = save_after
        #: cards read from the store, and users started from their saved passages
        self.cards_read = 0
        self.restored = 0
        self._unsaved: dict[str, int] = {}
        self._saves = UserJobs(
            self._save,
            name="graphmem-passages",
            log=log,
            failed="saving the recall passages of %s failed (the next process reads them)",
            level=logging.DEBUG,
        )

    def current(
        self,
        user_id: str,
        revision: int,
        deletions: int,
        relationships: dict[str, str | None] | None = None,
    ) -> UserPassages:
        """The user's passages as of ``revision`` (loading or catching up as needed);
        ``relationships``: the user's to each person now, by person key (keys of cards
        read now carry them)."""
        with self._lock:
            gate = self._loading.setdefault(user_id, threading.Lock())
        with gate:
            with self._lock:
                held = self._users.get(user_id)
            saved = None
            if held is None and self._directory is not None:
                held = saved = self._restore(user_id)
            if held is None or held.deletions != deletions or held.revision > revision:
                if saved is not None:  # made before a hard delete, or of an erased user
                    self._file(user_id).unlink(missing_ok=True)
                held = UserPassages(-1, deletions)
            elif saved is not None:
                self.restored += 1
            read = 0
            if held.revision < revision or held.revision == -1:
                with held.lock:
                    read = self._read(
                        user_id, held, since=held.revision, relationships=relationships
                    )
                    held.revision = revision
            with self._lock:
                self._users[user_id] = held
                self._users.move_to_end(user_id)
                total = sum(len(u) for u in self._users.values())
                while total > self._budget and len(self._users) > 1:
                    _, evicted = self._users.popitem(last=False)
                    total -= len(evicted)
                self.cards_read += read
                unsaved = self._unsaved[user_id] = self._unsaved.get(user_id, 0) + read
            save_after = SAVE_AFTER if self._save_after is None else self._save_after
            if read and self._directory is not None and unsaved >= save_after:
                self._saves.put(user_id)
        return held

    def reading(self, user_id: str) -> threading.RLock:
        """The lock one recall holds from reading the user's passages to ranking them:
        another recall catching the same passages up meanwhile would add rows under it
        (arrays read before and after would disagree). Recalls of other users go on."""
        with self._lock:
            return self._reading.setdefault(user_id, threading.RLock())

    def drop(self, user_id: str) -> None:
        """Forget the user's passages, here and in the directory (a hard delete must not
        leave their text on disk)."""
        with self._lock:
            self._users.pop(user_id, None)
            self._unsaved.pop(user_id, None)
        if self._directory is not None:
            self._file(user_id).unlink(missing_ok=True)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until no save is queued or running; False on timeout."""
        return self._saves.wait(timeout)

    def close(self, timeout: float = 5.0) -> None:
        """Stop saving (a save under way finishes; queued ones are dropped)."""
        self._saves.close(timeout)

    def held(self) -> dict[str, int]:
        """Users held now and how many cards each."""
        with self._lock:
            return {user: len(p) for user, p in self._users.items()}

    # -- persisting ----------------------------------------------------------------------
    def _file(self, user_id: str) -> Path:
        assert self._directory is not None
        name = hashlib.blake2b(user_id.encode(), digest_size=16).hexdigest()
        return self._directory / f"{name}.passages"

    def _save(self, user_id: str) -> None:
        """Write the user's passages as held now (atomically: a reader sees the old file
        or the new one)."""
        with self._lock:
            held = self._users.get(user_id)
            self._unsaved[user_id] = 0
        if held is None:  # evicted meanwhile
            return
        with held.lock:
            data = marshal.dumps(
                {
                    "format": SNAPSHOT_FORMAT,
                    "python": sys.version_info[:2],
                    "terms": terms_version(),
                    "user_id": user_id,
                    **held.snapshot(),
                }
            )
        target = self._file(user_id)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            tmp.write_bytes(data)
            with self._lock:  # not over a drop() that came meanwhile
                if self._users.get(user_id) is held:
                    os.replace(tmp, target)
        finally:
            tmp.unlink(missing_ok=True)

    def _restore(self, user_id: str) -> UserPassages | None:
        """The user's saved passages, if a file made by this format, Python and
        tokenisation is there (the caller checks the store's counters)."""
        try:
            data = self._file(user_id).read_bytes()
        except OSError:
            return None
        # Tens of thousands of tuples at once: the cycle collector would walk the heap
        # several times over while they are made, for nothing (they hold no cycles).
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._restored(user_id, data)
        finally:
            if collecting:
                gc.enable()

    def _restored(self, user_id: str, data: bytes) -> UserPassages | None:
        try:
            state = marshal.loads(data)
        except (ValueError, EOFError, TypeError):
            return None
        if not (
            isinstance(state, dict)
            and state.get("format") == SNAPSHOT_FORMAT
            and state.get("python") == sys.version_info[:2]
            and state.get("user_id") == user_id
            and state.get("terms") == terms_version()
        ):
            return None
        try:
            return UserPassages.from_snapshot(state)
        except (KeyError, TypeError, ValueError, IndexError):
            log.debug("unreadable recall passages of %s: rebuilt", user_id, exc_info=True)
            return None

    def _read(
        self,
        user_id: str,
        held: UserPassages,
        *,
        since: int,
        relationships: dict[str, str | None] | None,
    ) -> int:
        """Read the user's cards stamped after ``since`` into ``held``; how many."""
        after = ""
        read = 0
        while True:
            page = self._store.run(
                "recall_passages",
                {"user_id": user_id, "since": since, "after": after, "limit": PAGE},
            )
            wanted = list(
                {row["source"] for row in page if row["source"] is not None} - held.sources_known()
            )
            sources = (
                {
                    row["id"]: row
                    for row in self._store.run(
                        "recall_sources", {"user_id": user_id, "ids": wanted}
                    )
                }
                if wanted
                else {}
            )
            held.apply(page, sources, relationships or {})
            read += len(page)
            if len(page) < PAGE:
                return read
            after = max(row["id"] for row in page)


def dense_by_passage(
    held: UserPassages, hits: Sequence[tuple[str, float]]
) -> tuple[dict[int, float], dict[int, str]]:
    """Vector hits ``(card id, score)`` grouped by passage: each passage's best score and
    the card that has it."""
    best: dict[int, float] = {}
    card: dict[int, str] = {}
    for card_id, score in hits:
        row = held.card_row(card_id)
        if row is None:
            continue
        at = held.cards[row].passage
        if at not in best or score > best[at]:
            best[at], card[at] = score, card_id
    return best, card
