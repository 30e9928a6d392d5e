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
(``graphmem.recall.lexical``), what the filters need of each card (status, person,
category, tags, time), so filters narrow candidates before anything is ranked, and each
card's unit vector, which recall ranks in process (``UserPassages.nearest``,
``graphmem.recall.cosine``) rather than asking the store to scan the user's cards. It
stays current by the user's counters (``graphmem.recall.state``): every card write stamps
the user's ``revision``, a hard delete counts ``deletions``; recall reads both counters in
the lookup it makes anyway and reads the cards stamped since, with their vectors (a
deletion or a counter that went back reloads the user). Loading reads text only, in the
recall that first needs it, once per user and process (its cost: docs/design.md,
"Figures"); the vectors follow in the background (FalkorDB sends them as text: reading
them with the cards made a fresh read 4-5x slower), and recall searches the store until
they are in. Given a directory, the index saves what it holds there, and the next process
starts from that file, mapped, and reads only the cards stamped since (``PassageIndex``).
A process that writes a user's cards prepares that file once its writes pause, or when it
closes: the first recall of a user in any process, even of one never recalled before, does
not read every card.
"""

from __future__ import annotations

import hashlib
import logging
import marshal
import os
import re
import sys
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Generic, TypeVar

import numpy as np

from graphmem import private
from graphmem.cards import person_key
from graphmem.models import SELF, Category, Status, embedding_text
from graphmem.recall import cosine
from graphmem.recall.cosine import best, unit
from graphmem.recall.jobs import UserJobs
from graphmem.recall.lexical import BM25, terms
from graphmem.recall.packed import ENTRY_BYTES, Keys, dump, load
from graphmem.recall.state import UserState
from graphmem.store.base import GraphStore

log = logging.getLogger(__name__)

#: cards read per query while loading or catching up. Each page scans and sorts the
#: user's cards in the store, so fewer pages load a large user faster: 100k cards took
#: 10.6 s in pages of 10,000 against 20.8 s in pages of 2,000 (10k cards: 0.8-1.0 s
#: against 0.9-1.1 s); a page of 10,000 costs the client ~6 MB more while it is read
#: (tracemalloc peak, 1.3 MB for 2,000).
PAGE = 10_000
#: bytes of passages held over all users (``UserPassages.nbytes``); least recently
#: recalled users go first (and come back from their saved file). A user read card by
#: card holds ~3 kB a card (a 10k-card user of bench/cold.py: 29.6 MB at tracemalloc); one
#: restored from its file maps the file (counted whole) and holds on the heap only what
#: its recalls decode.
BUDGET_MB = 512

#: card vectors read per query while filling them in (``PassageIndex._fill``), and the
#: lock on the user's passages held while a page is taken in (~10 ms at 1000)
VECTOR_PAGE = 1000

#: a user's passages are saved (``PassageIndex(directory=...)``) once this many cards
#: were read since the last save: a new process then reads only the cards stamped since
SAVE_AFTER = 500
#: seconds without a write to a user after which the process that wrote prepares their
#: passages (caught up and saved, ``PassageIndex.written``): long enough that an ingest's
#: next batch usually comes first (one save at its end, not one per batch)
PREPARE_AFTER = 5.0
#: the saved files' layout (``graphmem.recall.packed``: loading runs no code)
SNAPSHOT_FORMAT = 7  # 7: card spaces; 6: card vectors; 5: mapped arrays, keys searched in place

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
    "likely_claim",
    "fact",
    "person",
    "relationship",
)
_CODES = {status.value: code for code, status in enumerate(Status)}
#: where a card's claim and fact are in ``_Card.values`` (its status, then ``_WORTH``)
_CLAIM = 1 + _WORTH.index("claim")
_LIKELY_CLAIM = 1 + _WORTH.index("likely_claim")
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


#: the embedder's ``spaces``: per text embedded, the space its vector is in
Spaces = Callable[[Sequence[str]], list[int]]
_Row = TypeVar("_Row")


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


class _Rows(Generic[_Row]):
    """Rows of one kind (cards, passages) by row number: restored ones decoded one at a
    time, when asked, from the packed bytes they came in (each row's plain tuple,
    marshalled), the rest held as made. A restored user costs bytes, not objects."""

    def __init__(
        self,
        make: Callable[[tuple[Any, ...]], _Row],
        blob: np.ndarray | None = None,
        offsets: np.ndarray | None = None,
    ) -> None:
        """``blob``: the packed rows (uint8), ``offsets``: where each starts (int64)."""
        self._make = make
        self._blob = (np.zeros(0, dtype=np.uint8) if blob is None else blob).data
        self._offsets = np.zeros(1, dtype=np.int64) if offsets is None else offsets
        self._packed = len(self._offsets) - 1
        self._held: dict[int, _Row] = {}
        self._changed: set[int] = set()
        self._new: list[_Row] = []

    def __len__(self) -> int:
        return self._packed + len(self._new)

    def __getitem__(self, i: int) -> _Row:
        if i >= self._packed:
            return self._new[i - self._packed]
        if i < 0:
            raise IndexError("rows are read by their number")
        row = self._held.get(i)
        if row is None:
            a, b = int(self._offsets[i]), int(self._offsets[i + 1])
            row = self._held[i] = self._make(marshal.loads(self._blob[a:b]))
        return row

    def __setitem__(self, i: int, row: _Row) -> None:
        if i >= self._packed:
            self._new[i - self._packed] = row
        else:
            self._held[i] = row
            self._changed.add(i)

    def __iter__(self) -> Iterator[_Row]:
        return (self[i] for i in range(len(self)))

    def append(self, row: _Row) -> None:
        self._new.append(row)

    @property
    def decoded(self) -> int:
        """Rows held as objects (restored rows asked for, and rows made here)."""
        return len(self._held) + len(self._new)

    @property
    def nbytes(self) -> int:
        return len(self._blob) + self._offsets.nbytes

    def pack(self, plain: Callable[[_Row], tuple[Any, ...]]) -> tuple[np.ndarray, np.ndarray]:
        """The rows as one blob of marshalled tuples (uint8) and its offsets (int64);
        restored rows not changed keep their bytes."""
        pieces: list[bytes | memoryview] = []
        sizes: list[np.ndarray] = []
        start = 0
        for i in [*sorted(self._changed), self._packed]:
            if i > start:
                a, b = int(self._offsets[start]), int(self._offsets[i])
                pieces.append(self._blob[a:b])
                sizes.append(np.diff(self._offsets[start : i + 1]))
            if i < self._packed:
                pieces.append(marshal.dumps(plain(self._held[i])))
                sizes.append(np.array([len(pieces[-1])], dtype=np.int64))
            start = i + 1
        made = [marshal.dumps(plain(row)) for row in self._new]
        pieces += made
        sizes.append(np.array([len(p) for p in made], dtype=np.int64))
        offsets = np.zeros(len(self) + 1, dtype=np.int64)
        np.cumsum(np.concatenate(sizes), out=offsets[1:])
        return np.frombuffer(b"".join(pieces), dtype=np.uint8), offsets


class _Column:
    """A growable numpy column (of rows ``width`` wide, when given); restored, a view of
    the saved bytes until changed."""

    def __init__(self, dtype: type, data: np.ndarray | None = None, *, width: int = 0) -> None:
        shape = (16, width) if width else (16,)
        self._data = np.zeros(shape, dtype=dtype) if data is None else data
        self._size = 0 if data is None else len(data)

    @property
    def values(self) -> np.ndarray:
        return self._data[: self._size]

    @property
    def nbytes(self) -> int:
        return self._data.nbytes

    def append(self, value: Any) -> None:
        if self._size == len(self._data) or not self._data.flags.writeable:
            self._own()
        self._data[self._size] = value
        self._size += 1

    def __setitem__(self, i: int, value: Any) -> None:
        if not self._data.flags.writeable:
            self._own()
        self._data[i] = value

    def _own(self) -> None:
        shape = (max(16, 2 * self._size), *self._data.shape[1:])
        grown = np.zeros(shape, dtype=self._data.dtype)
        grown[: self._size] = self._data[: self._size]
        self._data = grown


#: How a text says a relationship is the user's: "my dog", "our new puppy", "me ma",
#: "mi novio", "我未婚妻": the word alone ("offered to dog sit") tells no one's.
_MINE = (
    r"(?:\b(?:my|our|me|ma|mah|mi|mis|mon|mes|mein|meine|meu|minha)\s+(?:[\w'-]+\s+)?|我的?|咱的?)"
)


def _plain(text: str) -> str:
    """Lower case without accents: "fiancé" is found in "my fiance"."""
    folded = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in folded if not unicodedata.combining(c))


class _Codes:
    """The distinct values of a string column, each with an integer code."""

    def __init__(self, values: Iterable[str] = ()) -> None:
        self.values = list(values)
        self._code = {value: code for code, value in enumerate(self.values)}

    def __call__(self, value: str) -> int:
        code = self._code.get(value)
        if code is None:
            code = self._code[value] = len(self.values)
            self.values.append(value)
        return code

    def of(self, values: Iterable[str]) -> list[int]:
        """Codes of those of ``values`` seen (the others match nothing)."""
        return [code for v in values if (code := self._code.get(v)) is not None]


#: numpy columns of the cards, and of the passages (a passage's "turn": its turn or 0;
#: "session": its code, -1 without; "when": epoch ms, ``_NO_TIME`` when unknown)
_CARD_COLUMNS = {
    "status": np.int8,
    "person": np.int32,
    "category": np.int32,
    "claim": np.int32,
    "likely_claim": np.int32,
    "timestamp": np.int64,
    "passage": np.int64,
    "vectored": np.bool_,
    "space": np.int8,  # the embedder's space the card's vector was made in (``nearest``)
}
_PASSAGE_COLUMNS = {"session": np.int32, "turn": np.int64, "when": np.int64}
_NO_TIME = np.iinfo(np.int64).min
#: Python bytes of a row held as an object (a ``_Card`` with its values, a passage with
#: its text: ~850 bytes on average at tracemalloc, a 10k-card user of bench/cold.py read
#: card by card), and of a dict entry (id -> row, passage -> its cards)
_ROW_BYTES = 850
_ENTRY_BYTES = ENTRY_BYTES


def _card_plain(card: _Card) -> tuple[Any, ...]:
    return (
        card.id,
        card.passage,
        card.status,
        card.person,
        card.name,
        card.relationship,
        card.category,
        tuple(card.tags),
        card.timestamp,
        card.values,
    )


_NO_TAGS: frozenset[str] = frozenset()


def _card_made(t: tuple[Any, ...]) -> _Card:
    card_id, passage, status, person, name, relationship, category, tags, when, values = t
    tags = frozenset(tags) if tags else _NO_TAGS
    return _Card(card_id, passage, status, person, name, relationship, category, tags, when, values)


def _passage_plain(p: _Passage) -> tuple[Any, ...]:
    return (p.source, p.session, p.turn, p.head, p.text, p.speaker, p.when)


def _passage_made(t: tuple[Any, ...]) -> _Passage:
    return _Passage(*t)


class UserPassages:
    """One user's passages and cards, as of ``revision`` (see the module docstring).

    What filters and ranking read of every card or passage is kept in numpy columns
    (codes for strings), so no step of a recall walks the user's cards in Python; rows
    are objects only where one is read (``_Rows``).

    Not thread-safe on its own: hold ``lock`` while reading or applying.
    """

    def __init__(self, revision: int, deletions: int) -> None:
        self.revision = revision
        self.deletions = deletions
        self.lock = threading.RLock()
        self.passages: _Rows[_Passage] = _Rows(_passage_made)
        self.cards: _Rows[_Card] = _Rows(_card_made)
        self._card_at = Keys()  # card id -> row
        self._passage_at = Keys()  # source -> passage
        #: passage -> card rows: those changed or made here; the others from ``_by_passage``
        self._members: dict[int, list[int]] = {}
        self._by_passage: tuple[np.ndarray, np.ndarray] | None = None
        self._restored_passages = 0
        self.bm25 = BM25()
        self._columns = {name: _Column(t) for name, t in (_CARD_COLUMNS | _PASSAGE_COLUMNS).items()}
        self._codes = {
            name: _Codes() for name in ("person", "category", "claim", "likely_claim", "session")
        }
        self._tags: dict[int, frozenset[str]] = {}  # card row -> its tags (when it has any)
        #: claim codes ``stating`` found per column and question kind, and how many
        #: claims it read
        self._stating: dict[tuple[str, tuple[str, ...], bool | None], tuple[int, list[int]]] = {}
        #: person keys the user speaks under, with how many cards say so (``user_speakers``)
        self._speaking: dict[str, int] = {}
        self._neighbours: tuple[np.ndarray, np.ndarray] | None = None
        self._by_person: dict[int, np.ndarray] | None = None
        self._days: np.ndarray | None = None
        #: each card's unit vector by card row (zeros: none; column "vectored"), made
        #: with the first vector read: what ``nearest`` scores
        self._vectors: _Column | None = None
        #: every card held has its vector (or has none in the store): ``nearest`` answers
        #: for the user. A user read afresh is read without vectors, which
        #: ``PassageIndex`` fills in the background (``fill_vectors``)
        self.vectors_ready = False

    def __len__(self) -> int:
        return len(self._card_at)

    @property
    def nbytes(self) -> int:
        """Bytes held: arrays and packed rows as they are (mapped from a saved file or
        not), objects at ``_ROW_BYTES`` and dict entries at ``_ENTRY_BYTES``. Grows as
        recalls decode rows and derive arrays: ``PassageIndex`` takes it at every recall."""
        arrays = sum(c.nbytes for c in self._columns.values())
        arrays += 0 if self._vectors is None else self._vectors.nbytes
        arrays += self._card_at.nbytes + self._passage_at.nbytes
        entries = len(self._members) + len(self._tags) + len(self._stating)
        entries += sum(len(c.values) for c in self._codes.values())
        rows = self.cards.decoded + self.passages.decoded
        derived = sum(a.nbytes for a in self._neighbours or ())
        derived += 0 if self._days is None else 8 * len(self._days)
        derived += sum(a.nbytes for a in (self._by_passage or ()))
        for people in (self._by_person or {}).values():
            derived += people.nbytes + _ENTRY_BYTES
        return (
            self.cards.nbytes
            + self.passages.nbytes
            + self.bm25.nbytes
            + arrays
            + derived
            + _ENTRY_BYTES * entries
            + _ROW_BYTES * rows
        )

    # -- keeping current -----------------------------------------------------------------
    def apply(
        self,
        rows: Iterable[dict[str, Any]],
        sources: dict[str, dict[str, Any]],
        relationships: dict[str, str | None],
        spaces: Spaces | None = None,
    ) -> None:
        """Take in ``recall_passages`` rows (new cards, and cards that changed), with the
        ``recall_sources`` rows of their sources by id and the user's relationship to
        each person now (by person key); ``spaces``: the embedder's (``Embedder.spaces``),
        which tells the space each card's vector is in from the text it embedded."""
        touched: set[int] = set()
        columns, codes = self._columns, self._codes
        embedded: dict[int, str] = {}  # card row -> the text its vector was made from
        for row in rows:
            source = row["source"] or f"card:{row['id']}"
            at = self._passage_at.get(source)
            if at is None:
                at = len(self.passages)
                self._passage_at[source] = at
                passage = _passage(source, row, sources.get(row["source"]))
                self.passages.append(passage)
                columns["session"].append(
                    -1 if passage.session is None else codes["session"](passage.session)
                )
                columns["turn"].append(passage.turn or 0)
                columns["when"].append(_NO_TIME if passage.when is None else int(passage.when))
                self._members[at] = []
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
                i = self._card_at[card.id] = len(self.cards)
                self.cards.append(card)
                self.members(at).append(i)
                for name in _CARD_COLUMNS:
                    columns[name].append(0)
            else:
                old = self.cards[i]
                self._count_speaker(old, -1)
                if old.passage != at:
                    self.members(old.passage).remove(i)
                    self.members(at).append(i)
                    touched.add(old.passage)
                self.cards[i] = card
            self._count_speaker(card, 1)
            columns["status"][i] = card.status
            columns["person"][i] = codes["person"](card.person)
            columns["category"][i] = codes["category"](card.category)
            columns["claim"][i] = codes["claim"](str(card.values[_CLAIM] or ""))
            likely = str(card.values[_LIKELY_CLAIM] or "")
            columns["likely_claim"][i] = codes["likely_claim"](likely)
            columns["timestamp"][i] = card.timestamp
            columns["passage"][i] = at
            columns["vectored"][i] = self._put_vector(i, row.get("embedding"))
            if spaces is not None:
                embedded[i] = embedding_text(
                    row["person"] or SELF, row["relationship"], row["fact"] or ""
                )
            if card.tags:
                self._tags[i] = card.tags
            else:
                self._tags.pop(i, None)
            touched.add(at)
        if spaces is not None and embedded:  # one call for the page, not one per card
            for i, space in zip(embedded, spaces(list(embedded.values())), strict=True):
                columns["space"][i] = space
        for at in touched:
            self.bm25.put(at, terms(self.key(at)))
        if touched:
            self._neighbours = None
            self._by_person = None
            self._days = None

    def _put_vector(self, i: int, vector: Sequence[float] | None) -> bool:
        """Hold card row ``i``'s vector, as a unit vector; False: it has none (or one
        of another dimension than the others: never a candidate)."""
        if vector is None or not len(vector):
            if self._vectors is None:
                return False
            unit_vector = None
        else:
            unit_vector = unit(vector)
            if self._vectors is None:
                self._vectors = _Column(np.float32, width=len(unit_vector))
        held = self._vectors
        while len(held.values) <= i:  # rows of cards read before without a vector
            held.append(0.0)
        if unit_vector is None or unit_vector.shape != held.values.shape[1:]:
            held[i] = 0.0
            return False
        held[i] = unit_vector
        return bool(unit_vector.any())

    def fill_vectors(self, rows: Iterable[dict[str, Any]]) -> None:
        """Take in ``recall_vectors`` rows (id, embedding) for cards held without a
        vector; a card read since with its vector keeps that one."""
        vectored = self._columns["vectored"]
        for row in rows:
            i = self._card_at.get(row["id"])
            if i is not None and not vectored.values[i]:
                vectored[i] = self._put_vector(i, row["embedding"])

    def _count_speaker(self, card: _Card, n: int) -> None:
        """Count ``card`` (``n``: 1 in, -1 out) for ``user_speakers``: a card about the
        user from a turn of a named speaker, in that speaker's own words."""
        if card.person != person_key(SELF):
            return
        speaker = self.passages[card.passage].speaker
        if not speaker or person_key(speaker) == SELF:
            return
        if str(card.values[_FACT] or "").startswith(f"{speaker} said:"):
            return
        key = person_key(speaker)
        self._speaking[key] = self._speaking.get(key, 0) + n

    def snapshot(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """Everything held, as plain values and arrays (for ``PassageIndex`` to persist
        with ``packed.dump``); hold ``lock``. Rows go as marshalled tuples, ids, columns
        and the lexical index as arrays: restoring makes no object per card."""
        arrays: dict[str, np.ndarray] = {}
        arrays["passages.blob"], arrays["passages.offsets"] = self.passages.pack(_passage_plain)
        arrays["cards.blob"], arrays["cards.offsets"] = self.cards.pack(_card_plain)
        for name, keys in (("sources", self._passage_at), ("ids", self._card_at)):
            arrays[f"{name}.keys"], arrays[f"{name}.rows"] = keys.pack()
        # copies: the file is written after the lock is let go, and apply() writes in place
        arrays |= {f"columns.{name}": c.values.copy() for name, c in self._columns.items()}
        if self._vectors is not None:
            arrays["vectors"] = self._vectors.values.copy()
        bm25 = self.bm25.state()
        arrays |= {f"bm25.{k}": v for k, v in bm25.items() if isinstance(v, np.ndarray)}
        header = {
            "revision": self.revision,
            "deletions": self.deletions,
            "codes": {name: c.values for name, c in self._codes.items()},
            "tags": {i: tuple(t) for i, t in self._tags.items()},
            "speaking": self._speaking,
            "vectors_ready": self.vectors_ready,
            "bm25": {k: v for k, v in bm25.items() if not isinstance(v, np.ndarray)},
        }
        return header, arrays

    @classmethod
    def from_snapshot(cls, header: dict[str, Any], arrays: dict[str, np.ndarray]) -> UserPassages:
        """The passages ``snapshot`` described (no key is tokenised again, no row made;
        the arrays are kept as given: views of the mapped file)."""
        held = cls(header["revision"], header["deletions"])
        held.passages = _Rows(_passage_made, arrays["passages.blob"], arrays["passages.offsets"])
        held.cards = _Rows(_card_made, arrays["cards.blob"], arrays["cards.offsets"])
        held._passage_at = Keys(arrays["sources.keys"], arrays["sources.rows"])
        held._card_at = Keys(arrays["ids.keys"], arrays["ids.rows"])
        held._restored_passages = len(held._passage_at)
        for name, dtype in (_CARD_COLUMNS | _PASSAGE_COLUMNS).items():
            data = arrays[f"columns.{name}"]
            if data.dtype != dtype:
                raise ValueError(f"saved column {name} is {data.dtype}, not {np.dtype(dtype)}")
            size = len(held.cards) if name in _CARD_COLUMNS else len(held.passages)
            if len(data) != size:
                raise ValueError(f"saved column {name} has {len(data)} rows, not {size}")
            held._columns[name] = _Column(dtype, data)
        if len(held._card_at) != len(held.cards) or len(held._passage_at) != len(held.passages):
            raise ValueError("saved ids do not match the saved rows")
        vectors = arrays.get("vectors")
        if vectors is not None:
            if vectors.dtype != np.float32 or vectors.ndim != 2 or len(vectors) > len(held.cards):
                raise ValueError(f"saved vectors are {vectors.dtype} {vectors.shape}")
            held._vectors = _Column(np.float32, vectors)
        held._codes = {name: _Codes(values) for name, values in header["codes"].items()}
        held._tags = {i: frozenset(t) for i, t in header["tags"].items()}
        held._speaking = dict(header["speaking"])
        held.vectors_ready = bool(header["vectors_ready"])
        bm25 = header["bm25"] | {
            k.removeprefix("bm25."): v for k, v in arrays.items() if k.startswith("bm25.")
        }
        held.bm25 = BM25.from_state(bm25)
        return held

    def sources_unknown(self, sources: Iterable[str]) -> list[str]:
        """Those of ``sources`` not held yet (the others' text is not read again)."""
        return [source for source in sources if source not in self._passage_at]

    def key(self, at: int) -> str:
        """The searchable text of passage ``at`` (see the module docstring)."""
        passage = self.passages[at]
        said = passage.text.lower()
        extra: list[str] = []
        for i in self.members(at):
            card = self.cards[i]
            for word in (card.name, card.relationship):
                if word and word not in (SELF, "self") and word.lower() not in said:
                    said += " " + word.lower()
                    extra.append(word)
        return " ".join([passage.head, *extra])

    # -- reading -------------------------------------------------------------------------
    def card_ids(self, rows: Iterable[int]) -> list[str]:
        return [self.cards[i].id for i in rows]

    def card_id(self, i: int) -> str:
        """Card row ``i``'s id; one restored is read from the saved ids, its row is not
        decoded (ranking names every card tied on a score)."""
        card_id = self._card_at.packed_key_of(i)
        return self.cards[i].id if card_id is None else card_id

    def card_passage(self, i: int) -> int:
        """The passage of card row ``i`` (its row is not decoded)."""
        return int(self._columns["passage"].values[i])

    def card_row(self, card_id: str) -> int | None:
        return self._card_at.get(card_id)

    def members(self, at: int) -> list[int]:
        """Card rows of passage ``at`` (the list held: change it only in ``apply``)."""
        rows = self._members.get(at)
        if rows is None:
            if self._by_passage is None:  # restored: sorted out of the passage column
                column = self._columns["passage"].values[: self.cards._packed]
                order = np.argsort(column, kind="stable")
                bounds = np.searchsorted(column[order], np.arange(self._restored_passages + 1))
                self._by_passage = (order, bounds)
            order, bounds = self._by_passage
            rows = (
                order[bounds[at] : bounds[at + 1]].tolist() if at < self._restored_passages else []
            )
            self._members[at] = rows
        return rows

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
        a = self._columns
        mask = np.isin(a["status"].values, [_CODES[s] for s in statuses if s in _CODES])
        if people is not None:
            mask &= np.isin(a["person"].values, self._codes["person"].of(people))
        if categories is not None:
            mask &= np.isin(a["category"].values, self._codes["category"].of(categories))
        if tags is not None:
            wanted = set(tags)
            only = np.zeros(len(mask), dtype=bool)
            only[[i for i, t in self._tags.items() if t & wanted]] = True
            mask &= only
        if since is not None:
            mask &= a["timestamp"].values >= since
        if until is not None:
            mask &= a["timestamp"].values <= until
        if card_ids is not None:
            rows = [i for c in card_ids if (i := self._card_at.get(c)) is not None]
            only = np.zeros(len(mask), dtype=bool)
            only[rows] = True
            mask &= only
        if at is not None:
            mask &= np.fromiter(
                (_maybe_held(c.worth, **at) for c in self.cards), bool, len(self.cards)
            )
        return mask

    def spaces(self) -> set[int]:
        """The embedder spaces the cards' vectors are in (``Embedder.spaces``)."""
        spaces = self._columns["space"].values
        if not spaces.any():  # one model, or only texts the first model reads
            return {0} if len(spaces) else set()
        return {int(s) for s in np.unique(spaces)}

    def in_own_space(
        self, ranked: Sequence[Sequence[tuple[str, float]]], spaces: Sequence[int], k: int
    ) -> list[tuple[str, float]]:
        """The ``k`` best of hits ranked by a question's vector in each of ``spaces``
        (the store's vector search, once per space), each card scored by the vector of its
        own space: what ``nearest`` gives once the vectors are here."""
        if len(ranked) == 1:
            return list(ranked[0])
        column = self._columns["space"].values
        mine: dict[str, float] = {}
        for hits, space in zip(ranked, spaces, strict=True):
            for card_id, score in hits:
                row = self._card_at.get(card_id)
                own = space if row is None else int(column[row])
                if own == space or (own not in spaces and space == spaces[0]):
                    mine[card_id] = score
        return sorted(mine.items(), key=lambda hit: (-hit[1], hit[0]))[:k]

    def nearest(
        self,
        vector: Sequence[float] | np.ndarray,
        k: int,
        card_mask: np.ndarray,
        across: Mapping[int, np.ndarray] | None = None,
    ) -> list[tuple[str, float]]:
        """The ``k`` cards of ``card_mask`` with a vector most similar to ``vector``:
        ``(card id, cosine)``, best first, ties by id (``graphmem.recall.cosine``). The
        cards of a space in ``across`` (``Embedder.across``) are compared with its vector
        there instead: a question in English with cards the multilingual model made."""
        if self._vectors is None or k <= 0:
            return []
        matrix = self._vectors.values
        query = unit(vector)
        if query.shape != matrix.shape[1:]:
            return []
        size = len(matrix)
        rows = np.flatnonzero(card_mask[:size] & self._columns["vectored"].values[:size])
        if not len(rows):
            return []
        if 4 * len(rows) < size:  # a few rows (a filter) are gathered first
            matrix = matrix[rows]
        scores = cosine.scores(matrix, query)
        if len(scores) > len(rows):
            scores = scores[rows]
        for space, there in (across or {}).items():
            moved = np.flatnonzero(self._columns["space"].values[rows] == space)
            if len(moved):
                scores[moved] = cosine.scores(self._vectors.values[rows[moved]], unit(there))
        return [(self.card_id(i), score) for i, score in best(rows, scores, k, self.card_id)]

    def passages_of(self, card_mask: np.ndarray) -> np.ndarray:
        """Passages (a boolean mask) with at least one card of ``card_mask``."""
        out = np.zeros(len(self.passages), dtype=bool)
        out[self._columns["passage"].values[card_mask]] = True
        return out

    def about(self, key: str, card_mask: np.ndarray) -> np.ndarray:
        """Passages with a card of ``card_mask`` about the person ``key``."""
        out = np.zeros(len(self.passages), dtype=bool)
        [code] = self._codes["person"].of([key]) or [-1]
        rows = self._people().get(code)
        if rows is not None:
            rows = rows[card_mask[rows]]
            out[self._columns["passage"].values[rows]] = True
        return out

    def _people(self) -> dict[int, np.ndarray]:
        """Card rows about each person (by code)."""
        if self._by_person is None:
            codes = self._columns["person"].values
            if not len(codes):
                return {}
            order = np.argsort(codes, kind="stable")
            keys, starts = np.unique(codes[order], return_index=True)
            self._by_person = dict(zip(keys.tolist(), np.split(order, starts[1:]), strict=True))
        return self._by_person

    def stating(
        self,
        attributes: tuple[str, ...],
        cards: np.ndarray,
        *,
        mine: bool | None = None,
        column: str = "claim",
    ) -> list[int]:
        """Rows of ``cards`` (a row mask) whose stored claim (``subject|attribute``) is of
        one of ``attributes`` (prefixes: "employer", "preferred ", "my manager"); with
        ``mine``, only claims about the user (True) or only about others (False). With
        ``column="likely_claim"``, the slot read by similarity instead
        (``algorithms.slots``)."""
        claims = self._codes[column].values
        scanned, codes = self._stating.get((column, attributes, mine), (0, []))
        for code in range(scanned, len(claims)):  # claims first seen since the last ask
            subject, _, attribute = claims[code].partition("|")
            if attribute.startswith(attributes) and (mine is None or (subject == "me") == mine):
                codes.append(code)
        self._stating[(column, attributes, mine)] = (len(claims), codes)
        if not codes:
            return []
        return np.flatnonzero(np.isin(self._columns[column].values, codes) & cards).tolist()

    def told(
        self,
        key: str,
        name: str,
        when: int,
        cards: np.ndarray,
        *,
        said_as: str | None = None,
        or_before: bool = False,
    ) -> int | None:
        """The row of the card, among ``cards`` (a row mask) said at ``when``, that told
        the user's relationship to a person: given the time it was said
        (``Known.since``), the first card then, in the order said, that words the
        relationship ``said_as`` as the user's (``_MINE``: "现在她是我未婚妻了" for 佳佳,
        fiancée; not "offered to dog sit" for the dog), about the user or the person,
        else the first that names ``name`` (case aside) or is about the person ``key``
        ("ive been seeing someone, her name is jess" for Jess, girlfriend). With
        ``or_before``, when none said then names them, the last one said before that does
        (an ex became one when the next partner came; "me and alyssa broke up" was said
        before)."""
        size = len(self.cards)
        times = self._columns["timestamp"].values[:size]
        # a card dated by its words ("shaadi ho gayi!! 24 november") was said in its turn
        said = self._columns["when"].values[self._columns["passage"].values[:size]]
        persons = self._columns["person"].values[:size]
        [code] = self._codes["person"].of([key]) or [-1]
        [user] = self._codes["person"].of([SELF]) or [-1]
        wanted, word = name.lower(), _plain(said_as or "")

        def turns(rows: np.ndarray) -> np.ndarray:
            return self._columns["turn"].values[self._columns["passage"].values[rows]]

        def fact(i: int) -> str:
            return _plain(str(self.cards[i].values[_FACT] or ""))

        owned = re.compile(_MINE + re.escape(word)) if word else None

        def words_it(i: int) -> bool:
            return owned is not None and persons[i] in (code, user) and bool(owned.search(fact(i)))

        def names_them(i: int) -> bool:
            return persons[i] == code or wanted in fact(i)

        def first(rows: np.ndarray, test: Callable[[int], bool]) -> int | None:
            return next((int(i) for i in rows.tolist() if test(i)), None)

        then = np.flatnonzero(((times == when) | (said == when)) & cards[:size])
        then = then[np.argsort(turns(then), kind="stable")]
        found = first(then, words_it)
        if found is None:
            found = first(then, names_them)
        if found is not None or not or_before:
            return found
        before = np.flatnonzero((times < when) & cards[:size])
        return first(before[np.lexsort((-turns(before), -times[before]))], names_them)

    def said_on(self) -> np.ndarray:
        """Per passage, the day it was said (``days.day_of``; date.min when unknown);
        kept until the passages change (``apply`` drops it)."""
        if self._days is None:
            when = self._columns["when"].values
            known = when != _NO_TIME
            day_numbers = np.where(known, when, 0) // 86_400_000
            unique, inverse = np.unique(day_numbers, return_inverse=True)
            epoch = date(1970, 1, 1).toordinal()
            named = np.array([date.fromordinal(epoch + int(d)) for d in unique] + [date.min])
            self._days = named[np.where(known, inverse.reshape(-1), len(unique))]
        return self._days

    def user_speakers(self) -> set[str]:
        """Person keys of the names the user speaks under in their conversations: the
        speakers of turns that gave cards about the user in the speaker's own words
        (extraction files another speaker's first person under that speaker, and quotes
        what another speaker says of the user as "<speaker> said: ..."). Counted as
        cards come and go (``apply``)."""
        return {key for key, n in self._speaking.items() if n > 0}

    def people_in(self, passages: Iterable[int]) -> set[str]:
        """Person keys the cards of ``passages`` are about."""
        return {self.cards[i].person for at in passages for i in self.members(at)}

    def passage_of(self, card_rows: np.ndarray) -> np.ndarray:
        return self._columns["passage"].values[card_rows]

    def neighbours(self) -> tuple[np.ndarray, np.ndarray]:
        """The previous and next passage of each passage in its session (-1: none)."""
        if self._neighbours is None:
            session = self._columns["session"].values
            before = np.full(len(session), -1, dtype=np.int64)
            after = before.copy()
            rows = np.flatnonzero(session >= 0)
            order = rows[np.lexsort((self._columns["turn"].values[rows], session[rows]))]
            same = session[order[:-1]] == session[order[1:]]
            after[order[:-1][same]] = order[1:][same]
            before[order[1:][same]] = order[:-1][same]
            self._neighbours = (before, after)
        return self._neighbours


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
    " lol ㅋㅋ 哈哈"
)


def stamp(user_id: str) -> dict[str, Any]:
    """What a saved file must say of itself to be read: its layout, the Python that
    marshalled its rows, the tokenisation and the user."""
    return {
        "format": SNAPSHOT_FORMAT,
        "python": sys.version_info[:2],
        "terms": terms_version(),
        "user_id": user_id,
    }


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
    Users written through this process (``written``) are prepared too, once their writes
    pause for ``prepare_after`` seconds or the index closes, whether recalled here or not.
    """

    def __init__(
        self,
        store: GraphStore,
        *,
        budget_bytes: int = BUDGET_MB * 2**20,
        directory: Path | None = None,
        save_after: int | None = None,
        spaces: Spaces | None = None,
        prepare_after: float | None = None,
    ) -> None:
        self._store = store
        self._spaces = spaces
        self._budget = budget_bytes
        self._bytes: dict[str, int] = {}  # per user held, as of their last change
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
        #: per user, how many times their passages were dropped: a save or fill begun
        #: before a drop never writes their file again
        self._drops: dict[str, int] = {}
        #: users read without their vectors, for ``_fill``: filled and saved even if
        #: the budget lets them go before their turn comes
        self._unfilled: dict[str, UserPassages] = {}
        #: users filled after the budget let them go, to save all the same (with the
        #: drops counted when their fill began)
        self._filled: dict[str, tuple[UserPassages, int]] = {}
        self._fills = UserJobs(
            self._fill,
            name="graphmem-passage-vectors",
            log=log,
            failed="reading the card vectors of %s failed (recall searches the store)",
            level=logging.DEBUG,
        )
        self._saves = UserJobs(
            self._save,
            name="graphmem-passages",
            log=log,
            failed="saving the recall passages of %s failed (the next process reads them)",
            level=logging.DEBUG,
        )
        self._prepare_after = prepare_after
        #: per user written through this process and not prepared since, when the last
        #: write came (monotonic); ``_preparer`` takes each once their writes pause
        self._written: dict[str, float] = {}
        self._preparing: str | None = None
        self._prepared = threading.Condition(self._lock)  # a write or a prepare came
        self._preparer: threading.Thread | None = None
        self._closing = threading.Event()  # prepares wait no longer for writes to pause
        self._stopped = threading.Event()

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
            held, read = self._caught_up(user_id, held, revision, deletions, relationships)
            if saved is not None and held is saved:
                self.restored += 1
            elif saved is not None:  # made before a hard delete, or of an erased user
                self._file(user_id).unlink(missing_ok=True)
            with held.lock:
                # taken at every recall: the ones before decoded rows and derived arrays
                size = held.nbytes
                ready = held.vectors_ready
            with self._lock:
                self._users[user_id] = held
                self._users.move_to_end(user_id)
                self._bytes[user_id] = size
                total = sum(self._bytes.values())
                while total > self._budget and len(self._users) > 1:
                    evicted, _ = self._users.popitem(last=False)
                    total -= self._bytes.pop(evicted)
                self.cards_read += read
                unsaved = self._unsaved[user_id] = self._unsaved.get(user_id, 0) + read
            if read and self._directory is not None and unsaved >= self._saved_after():
                self._saves.put(user_id)
        if not ready:
            with self._lock:
                self._unfilled[user_id] = held
            self._fills.put(user_id)
        return held

    def _caught_up(
        self,
        user_id: str,
        held: UserPassages | None,
        revision: int,
        deletions: int,
        relationships: dict[str, str | None] | None,
    ) -> tuple[UserPassages, int]:
        """``held`` (as this process holds it, or from the file) read up to ``revision``,
        or the user read anew when there is none, it was made before a hard delete, or it
        is ahead of the store; and how many cards were read."""
        if held is None or held.deletions != deletions or held.revision > revision:
            held = UserPassages(-1, deletions)
        read = 0
        with held.lock:
            if held.revision < revision or held.revision == -1:
                read = self._read(user_id, held, since=held.revision, relationships=relationships)
                held.revision = revision
        return held, read

    def _saved_after(self) -> int:
        """Cards read since the last save that make the next one (``SAVE_AFTER``)."""
        return SAVE_AFTER if self._save_after is None else self._save_after

    def written(self, user_ids: Iterable[str]) -> None:
        """Cards of ``user_ids`` were just written: once no write to a user came for
        ``prepare_after`` seconds (or at ``close``), their passages are caught up and
        saved in the background (``_prepare``), so that no process's first recall of them
        reads every card. Without a directory there is nothing to prepare."""
        if self._directory is None:
            return
        now = time.monotonic()
        with self._lock:
            if self._stopped.is_set():
                return
            self._written.update(dict.fromkeys(user_ids, now))
            if self._preparer is None:
                self._preparer = threading.Thread(
                    target=self._prepare_loop, daemon=True, name="graphmem-passages-prepare"
                )
                self._preparer.start()
            self._prepared.notify_all()

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
            self._bytes.pop(user_id, None)
            self._unsaved.pop(user_id, None)
            self._unfilled.pop(user_id, None)
            self._filled.pop(user_id, None)
            self._written.pop(user_id, None)
            self._drops[user_id] = self._drops.get(user_id, 0) + 1
        if self._directory is not None:
            self._file(user_id).unlink(missing_ok=True)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until no vector fill or save is queued or running (prepares excepted:
        they wait for writes to pause); False on timeout."""
        return self._fills.wait(timeout) and self._saves.wait(timeout)

    def close(self, timeout: float = 5.0) -> None:
        """Prepare the users written and finish the saves queued, within ``timeout`` (a
        process that wrote or read a user and closes leaves their file for the next
        one); stop filling vectors, then stop."""
        deadline = time.monotonic() + timeout

        def left() -> float:
            return max(0.0, deadline - time.monotonic())

        self._closing.set()
        with self._prepared:
            self._prepared.notify_all()
            self._prepared.wait_for(lambda: not self._written and not self._preparing, left())
            self._stopped.set()
            self._prepared.notify_all()
        if self._preparer is not None:
            self._preparer.join(left())
        self._fills.close(left())
        self._saves.wait(left())
        self._saves.close(left())

    def held_bytes(self) -> int:
        """Bytes of passages held over all users (what ``budget_bytes`` bounds)."""
        with self._lock:
            return sum(self._bytes.values())

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
        """Write the user's passages as held now (or as their fill left them, when the
        budget let them go before it ended), unless a hard delete came since, here or in
        another process. Saves run one at a time, on one thread: a file is never
        written by two at once."""
        with self._lock:
            held = self._users.get(user_id)
            self._unsaved[user_id] = 0
            drops = self._drops.get(user_id, 0)
            filled = self._filled.pop(user_id, None)
        if held is None and filled is not None:
            held, drops = filled
        if held is None:  # evicted meanwhile: saved when it was
            return
        # atomically (a reader sees the old file or the new one), unless the user was
        # dropped since ``drops`` was counted
        with held.lock:
            header, arrays = held.snapshot()
        target = self._file(user_id)
        private.make_dir(target.parent)
        tmp = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            dump(tmp, {**stamp(user_id), **header}, arrays)
            # nor over another process's hard delete since the snapshot: its words stay
            # off disk (the counters went on, or back for an erased user)
            state = UserState.read(self._store, user_id)
            if state.deletions != header["deletions"] or state.revision < header["revision"]:
                return
            with self._lock:  # not over a drop() that came meanwhile
                if self._drops.get(user_id, 0) == drops:
                    os.replace(tmp, target)
        finally:
            tmp.unlink(missing_ok=True)

    def _fill(self, user_id: str) -> None:
        """Read the vectors of the user's cards held without one (the user was read
        afresh: ``recall_passages`` without vectors), then save the user with them."""
        with self._lock:
            held = self._unfilled.pop(user_id, None)
            held = self._users.get(user_id) if held is None else held
            drops = self._drops.get(user_id, 0)
        if held is None or held.vectors_ready:
            return
        if self._read_vectors(user_id, held, self._fills.closed) and self._directory:
            self._save_as_filled(user_id, held, drops)  # even if the budget let them go

    def _read_vectors(
        self, user_id: str, held: UserPassages, stop: threading.Event, limit: int = VECTOR_PAGE
    ) -> bool:
        """Read the vectors of the cards ``held`` has without one, in pages of ``limit``,
        until done (True) or ``stop`` is set."""
        after = ""
        while not stop.is_set():
            page = self._store.run(
                "recall_vectors", {"user_id": user_id, "after": after, "limit": limit}
            )
            with held.lock:  # cards read meanwhile came with theirs: kept
                held.fill_vectors(page)
            if len(page) < limit:
                with held.lock:
                    held.vectors_ready = True
                return True
            after = page[-1]["id"]
        return False

    def _save_as_filled(self, user_id: str, held: UserPassages, drops: int) -> None:
        """Have the save thread write ``held``, whether the budget holds it or not, unless
        the user was dropped since ``drops`` was counted."""
        with self._lock:
            self._filled[user_id] = (held, drops)
        self._saves.put(user_id)

    def _prepare_loop(self) -> None:
        """Prepare each user written once no write to them came for ``prepare_after``
        seconds, the longest waiting first (at close, without waiting), until stopped."""
        while True:
            with self._prepared:
                user_id = None
                while user_id is None:
                    if self._stopped.is_set():
                        return
                    quiet = PREPARE_AFTER if self._prepare_after is None else self._prepare_after
                    if self._closing.is_set():
                        quiet = 0.0
                    now = time.monotonic()
                    first = min(self._written, key=self._written.__getitem__, default=None)
                    if first is None:
                        self._prepared.wait()
                    elif self._written[first] + quiet > now:
                        self._prepared.wait(self._written[first] + quiet - now)
                    else:
                        user_id = first
                del self._written[user_id]  # a write from now on prepares them again
                self._preparing = user_id
            try:
                self._prepare(user_id)
            except Exception:  # the store went away or failed: their first recall reads
                log.debug("preparing the recall passages of %s failed", user_id, exc_info=True)
            finally:
                with self._prepared:
                    self._preparing = None
                    self._prepared.notify_all()

    def _prepare(self, user_id: str) -> None:
        """Catch the user's passages up and have them saved with their vectors: as held
        here if they are, else from their file or afresh, without taking a place in the
        budget (a bulk import does not push out the users recalls need). A file is
        rewritten only as a recall's catching up would (``save_after`` cards read), or
        when it lacks vectors."""
        state = UserState.read(self._store, user_id)
        relationships = {
            row["key"]: row["relationship"]
            for row in self._store.run("known_people", {"user_id": user_id})
        }
        with self._lock:
            gate = self._loading.setdefault(user_id, threading.Lock())
            drops = self._drops.get(user_id, 0)
        with gate:
            with self._lock:
                recalled = user_id in self._users
            if not recalled:
                saved = self._restore(user_id)
                held, read = self._caught_up(
                    user_id, saved, state.revision, state.deletions, relationships
                )
        if recalled:  # caught up as a recall would (which saves once enough cards came)
            self.current(user_id, state.revision, state.deletions, relationships)
            return
        if held is saved and read < self._saved_after() and held.vectors_ready:
            return  # a few cards on top of the file: the next reader reads them
        self._save_as_filled(user_id, held, drops)  # the text first: the slower half may
        if held.vectors_ready:  # not end before the process does
            return
        # in pages as large as the cards' (each page scans the user's cards); no recall
        # waits on this user's lock meanwhile
        if self._read_vectors(user_id, held, self._stopped, PAGE):
            self._save_as_filled(user_id, held, drops)

    def _restore(self, user_id: str) -> UserPassages | None:
        """The user's saved passages, if a file made by this format, Python and
        tokenisation is there (the caller checks the store's counters). The file is
        mapped, not read: its arrays are read where a query needs them."""
        loaded = load(self._file(user_id))
        if loaded is None:
            return None
        header, arrays = loaded
        if not (isinstance(header, dict) and header | stamp(user_id) == header):
            return None
        try:
            return UserPassages.from_snapshot(header, arrays)
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
                {
                    "user_id": user_id,
                    "since": since,
                    "after": after,
                    "limit": PAGE,
                    "vectors": since >= 0,  # afresh: without (``_fill``)
                },
            )
            wanted = held.sources_unknown(
                {row["source"] for row in page if row["source"] is not None}
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
            held.apply(page, sources, relationships or {}, self._spaces)
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
        at = held.card_passage(row)
        if at not in best or score > best[at]:
            best[at], card[at] = score, card_id
    return best, card
