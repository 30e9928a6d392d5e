"""A claim's likely slot by meaning, for the cards about the user no rule reads.

"signed with the alder in collingwood, sous chef not head chef" states where the user
works, in words no pattern of ``conflicts.RULES`` lists. Its card's vector (computed at
ingest anyway) is compared with the vectors of a few example sentences per attribute
that each language keeps as data (``Language.slot_examples``), among them near misses
("work was brutal today", "thinking of moving to denver") under "": the card takes the
attribute of its nearest example when that example is near enough (``THRESHOLD``) and
nearer than every example of another class, near misses included (``MARGIN``).

The slot so read only helps recall answer a question that asks it
(``recall.engine._answering``); it never supersedes or conflicts anything: consolidation
reads slots by rules alone.
"""

from __future__ import annotations

import re
import threading

import numpy as np

from graphmem import lang
from graphmem.embedding import Embedder

#: cosine the nearest example must reach ("I: <fact>" against "I: <example>"): on the
#: chat dev sets 0.5 and 0.55 answer alike and 0.55 reads fewer wrong slots (21 cards of
#: 2,259, 16 rightly, against 36 and 23); 0.45 answered fewer (docs/design.md)
THRESHOLD = 0.55
#: how much nearer than any example of another class (near misses included) it must be
MARGIN = 0.03
#: a message whose nearest example of a slot is this near, but not ``THRESHOLD``, has
#: its clauses read one by one (only these: each clause is one more text to embed)
NEAR = 0.40


class SlotReader:
    """Reads likely slots with one embedder. A card is compared with the examples of its
    own language (``lang.detect``: the embedder puts other languages in other regions of
    the space, or in another model's), each language's examples embedded once, at its
    first card (one model call per language and process, not per card; an English-only
    process never loads the multilingual model for them)."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._lock = threading.Lock()
        self._examples: dict[str, tuple[list[str], np.ndarray]] = {}

    def _of(self, code: str) -> tuple[list[str], np.ndarray]:
        with self._lock:
            if code not in self._examples:
                examples = lang.slot_examples(code)
                vectors = _unit(
                    self._embedder.embed([f"I: {s}" for _, s in examples])
                    if examples
                    else np.zeros((0, 1))
                )
                self._examples[code] = ([a for a, _ in examples], vectors)
            return self._examples[code]

    def slots(self, texts: list[str], vectors: np.ndarray) -> list[str]:
        """Per card (its fact and vector), the attribute it likely states, "" for none."""
        found = [""] * len(texts)
        by_language: dict[str, list[int]] = {}
        for i, text in enumerate(texts):
            by_language.setdefault(lang.detect(text), []).append(i)
        for code, rows in by_language.items():
            classes, examples = self._of(code)
            if not classes:
                continue
            cosines = _unit(np.asarray(vectors)[rows]) @ examples.T
            near: list[int] = []
            stated = np.array([bool(c) for c in classes])
            for i, row in zip(rows, cosines, strict=True):
                found[i] = _decide(classes, row)
                if not found[i] and stated.any() and row[stated].max() >= NEAR:
                    near.append(i)
            self._by_clause(texts, near, found, classes, examples)
        return found

    def _by_clause(
        self,
        texts: list[str],
        rows: list[int],
        found: list[str],
        classes: list[str],
        examples: np.ndarray,
    ) -> None:
        """A long message states its change in one clause among others ("got a
        place!!! 2 bed unit in scarborough, 3 min walk to the beach"), which the whole
        message's vector dilutes: each clause of a message near a slot (``NEAR``) is
        read on its own, and the message takes the slot of its first clause that has
        one."""
        clauses = {i: _clauses(texts[i]) for i in rows}
        wanted = [(i, c) for i, cs in clauses.items() if len(cs) > 1 for c in cs]
        if not wanted:
            return
        vectors = _unit(self._embedder.embed([f"I: {c}" for _, c in wanted]))
        for (i, _), row in zip(wanted, vectors @ examples.T, strict=True):
            if not found[i]:
                found[i] = _decide(classes, row)


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
