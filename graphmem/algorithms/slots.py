"""A claim's likely slot by meaning, for the cards about the user no rule reads.

"the alder in collingwood took me on, sous chef not head chef" states where the user
works, in words no pattern of ``conflicts.RULES`` lists. Its card's vector (computed at
ingest anyway) is compared with the vectors of a few example sentences per attribute
that each language keeps as data (``Language.slot_examples``), among them near misses
("work was brutal today", "thinking of moving to denver") under "": the card takes the
attribute of its nearest example when that example is near enough (``THRESHOLD``) and
nearer than every example of another class, near misses included (``MARGIN``).

A card meets its own language's examples when its language keeps some; a card in any
other language ("j'ai signé chez atelier tilleul, j'ai commencé lundi dernier", Taglish,
Hinglish) meets every language's, in each embedding space the embedder has a vector of
it in (``Embedder.across``: French is embedded by MiniLM, which reads little of it, and
read by the multilingual model too), so no language needs examples of its own.

The slot so read only helps recall answer a question that asks it
(``recall.engine._answering``); it never supersedes or conflicts anything: consolidation
reads slots by rules alone.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from graphmem import lang
from graphmem.embedding import Embedder

#: cosine the nearest example must reach ("I: <fact>" against "I: <example>"): on the
#: chat dev sets 0.5 and 0.55 answer alike and 0.55 reads fewer wrong slots (21 cards of
#: 2,259, 16 rightly, against 36 and 23); 0.45 answered fewer (docs/design.md). The same
#: in the multilingual model's space, a card against another language's examples: there
#: 0.5 read three more slots, all wrong, and 0.6 two of the three right ones fewer
THRESHOLD = 0.55
#: how much nearer than any example of another class (near misses included) it must be
MARGIN = 0.03
#: a message whose nearest example of a slot is this near, but not ``THRESHOLD``, has
#: its clauses read one by one (only these: each clause is one more text to embed)
NEAR = 0.40


@dataclass(frozen=True)
class _Examples:
    """The slot examples that have a vector in one space: their attribute, language and
    unit vector, row by row."""

    classes: list[str]
    codes: list[str]
    vectors: np.ndarray

    def of(self, code: str) -> _Examples:
        """Those of language ``code``."""
        rows = [i for i, c in enumerate(self.codes) if c == code]
        return _Examples([self.classes[i] for i in rows], [code] * len(rows), self.vectors[rows])

    def decide(self, vector: np.ndarray) -> str:
        """The slot one vector of this space reads (``_decide``), "" for none."""
        return _decide(self.classes, _unit(vector[None])[0] @ self.vectors.T)


class SlotReader:
    """Reads likely slots with one embedder. Every language's examples are embedded once
    per space and process, at the first card read in that space (an English-only
    process never loads the multilingual model for them), then each card is a matrix
    product."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._lock = threading.Lock()
        self._examples = lang.slot_examples()
        self._codes = frozenset(code for code, _, _ in self._examples)
        self._in_space: dict[int, _Examples] = {}
        #: the spaces the examples are embedded in (one per model of the embedder)
        self._spaces = frozenset(embedder.spaces([f"I: {s}" for _, _, s in self._examples]))

    def _in(self, space: int) -> _Examples:
        """Every language's examples with a vector in ``space``: embedded there, or the
        vector the embedder gives them there (an English example in the multilingual
        model's space); an example no model of the space reads is left out."""
        with self._lock:
            if space not in self._in_space:
                found = self._vectors([s for _, _, s in self._examples], space)
                rows = [i for i, v in enumerate(found) if v is not None]
                self._in_space[space] = _Examples(
                    [self._examples[i][1] for i in rows],
                    [self._examples[i][0] for i in rows],
                    _unit(np.array([found[i] for i in rows]) if rows else np.zeros((0, 1))),
                )
            return self._in_space[space]

    def _vectors(self, texts: Sequence[str], space: int) -> list[np.ndarray | None]:
        """Each text's vector ("I: <text>") in ``space``, None where no model of it
        reads the text: one call for those embedded there, one each for the others."""
        said = [f"I: {t}" for t in texts]
        home = [i for i, s in enumerate(self._embedder.spaces(said)) if s == space]
        out: list[np.ndarray | None] = [None] * len(said)
        if home:
            for i, vector in zip(home, self._embedder.embed([said[i] for i in home]), strict=True):
                out[i] = vector
        for i in set(range(len(said))) - set(home):
            out[i] = self._embedder.across(said[i], {space}).get(space)
        return out

    def slots(self, texts: list[str], vectors: np.ndarray) -> list[str]:
        """Per card (its fact and vector), the attribute it likely states, "" for none."""
        found = [""] * len(texts)
        spaces = self._embedder.spaces([f"I: {t}" for t in texts])
        by_language: dict[tuple[str, int], list[int]] = {}
        for i, text in enumerate(texts):
            code = lang.detect(text)
            if code in self._codes:
                by_language.setdefault((code, spaces[i]), []).append(i)
            else:
                found[i] = self._in_any_language(text, np.asarray(vectors[i]), spaces[i])
        for (code, space), rows in by_language.items():
            examples = self._in(space).of(code)
            if not examples.classes:
                continue
            cosines = _unit(np.asarray(vectors)[rows]) @ examples.vectors.T
            near: list[int] = []
            stated = np.array([bool(c) for c in examples.classes])
            for i, row in zip(rows, cosines, strict=True):
                found[i] = _decide(examples.classes, row)
                if not found[i] and stated.any() and row[stated].max() >= NEAR:
                    near.append(i)
            self._by_clause(texts, near, found, space, examples)
        return found

    def _in_any_language(self, text: str, vector: np.ndarray, space: int) -> str:
        """The slot of a card in a language without examples of its own: read in each
        space the embedder has a vector of it in, against every language's examples
        there, the message and else its clauses one by one (always: against another
        language's examples, the whole of a long message is further still, "j'ai
        trouvé un studio à villeurbanne, ..., je signe le bail mercredi" at 0.31 and its
        first clause at 0.56); "" when two spaces read two slots."""
        vectors = {space: vector, **self._embedder.across(f"I: {text}", self._spaces - {space})}
        read: set[str] = set()
        for where, mine in vectors.items():
            examples = self._in(where)
            if not examples.classes:
                continue
            slot = [examples.decide(mine)]
            if not slot[0]:
                self._by_clause([text], [0], slot, where, examples)
            read.add(slot[0])
        read.discard("")
        return read.pop() if len(read) == 1 else ""

    def _by_clause(
        self,
        texts: list[str],
        rows: list[int],
        found: list[str],
        space: int,
        examples: _Examples,
    ) -> None:
        """A long message states its change in one clause among others ("got a
        place!!! 2 bed unit in scarborough, 3 min walk to the beach"), which the whole
        message's vector dilutes: each clause of a message near a slot (``NEAR``) is
        read on its own, in the message's space, and the message takes the slot of its
        first clause that has one."""
        clauses = {i: _clauses(texts[i]) for i in rows}
        wanted = [(i, c) for i, cs in clauses.items() if len(cs) > 1 for c in cs]
        if not wanted:
            return
        vectors = self._vectors([c for _, c in wanted], space)
        for (i, _), vector in zip(wanted, vectors, strict=True):
            if not found[i] and vector is not None:
                found[i] = examples.decide(vector)


#: where a message's clauses part: sentence ends, semicolons, commas, and a space beside
#: a Chinese character (Chinese chat parts its clauses with spaces)
_CLAUSE_END = re.compile(
    r"[.!?;。！？；]+\s*|[,，、]\s*|(?<=[\u3400-\u9fff])\s+|\s+(?=[\u3400-\u9fff])"
)
_HAN = re.compile(r"[\u3400-\u9fff]")
#: a clause read on its own has this many words (or Chinese characters) at least
CLAUSE_WORDS = 3


def _clauses(text: str) -> list[str]:
    """The clauses of ``text`` long enough to state something.

    >>> _clauses("got a place!!! 2 bed unit in scarborough, moved in yesterday. lol")
    ['got a place', '2 bed unit in scarborough', 'moved in yesterday']
    >>> _clauses("update！搬好家啦 愚园路的一个老洋房studio 有个小阳台 ☀️")
    ['搬好家啦', '愚园路的一个老洋房studio', '有个小阳台']
    """
    parts = (c.strip() for c in _CLAUSE_END.split(text))
    return [
        clause
        for clause in parts
        if len(clause.split()) >= CLAUSE_WORDS or len(_HAN.findall(clause)) >= CLAUSE_WORDS
    ]


def _unit(vectors: np.ndarray) -> np.ndarray:
    rows = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms > 0, norms, 1.0)


def _decide(classes: list[str], cosines: np.ndarray) -> str:
    """The class of the nearest example, when near enough and clear of every other class.

    >>> _decide(["employer", "employer", ""], np.array([0.7, 0.4, 0.5]))
    'employer'
    >>> _decide(["employer", "location", ""], np.array([0.7, 0.4, 0.68]))
    ''
    """
    best = int(np.argmax(cosines))
    attribute = classes[best]
    if not attribute or cosines[best] < THRESHOLD:
        return ""
    others = [c for c, a in zip(cosines, classes, strict=True) if a != attribute]
    return attribute if not others or cosines[best] - max(others) >= MARGIN else ""


__all__ = ["MARGIN", "NEAR", "THRESHOLD", "SlotReader"]
