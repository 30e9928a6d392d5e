"""Lexical relevance: Okapi BM25 over one user's passages, in this process.

Why not the stores' full-text indexes: they span every tenant (so document frequencies mix
users), and FalkorDB's RediSearch scores TF-IDF normalised by a document's most frequent
word, with no length normalisation: on LoCoMo's dev conversations (``bench/locomo.py``) it
found 44.8% of the evidence turns in the top 10 where BM25 over the same turns finds 58%.
BM25 needs per-user statistics (how many of *this user's* passages use a word), which
the index below keeps current as cards are written (``graphmem.recall.passages``).

Words come from ``graphmem.lang.terms``: each language's tokeniser on the runs of text in
its script (English: Snowball stems without stop words; Chinese: character bigrams).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

import numpy as np

from graphmem import lang
from graphmem.recall.packed import Keys

#: Term-frequency saturation and length normalisation: Anserini's defaults for passages
#: (k1 0.9, b 0.4), not tuned here. Conversation turns vary from "Thanks!" to a paragraph;
#: b 0.75 (documents) over-rewards short turns that repeat one query word (LoCoMo dev
#: split: R@10 64.2 with 1.2 / 0.75, 65.5 with 0.9 / 0.4).
K1 = 0.9
B = 0.4


def terms(text: str) -> list[str]:
    """The searchable words of ``text``, in any language (``graphmem.lang.terms``):
    English lower-cased, stop words out, stemmed; Chinese as character bigrams.

    >>> terms("When did Melanie paint the sunrise? She's painting again")
    ['melani', 'paint', 'sunris', 'paint']
    >>> terms("我妹妹对花生过敏")
    ['我妹', '妹妹', '妹对', '对花', '花生', '生过', '过敏']
    """
    return lang.terms(text)


class BM25:
    """An Okapi BM25 index over integer document ids, updated in place.

    Restored from ``state`` it stays packed (postings as flat arrays, read by slicing)
    and only the words a change touches become dicts: a restored index costs its arrays,
    not a Python object per posting, and is ready as soon as they are read.

    Examples:
        >>> index = BM25()
        >>> index.put(0, terms("Alice is allergic to peanuts"))
        >>> index.put(1, terms("Bob loves peanut butter and jam"))
        >>> index.put(2, terms("Carol paints"))
        >>> scores = index.scores(terms("what is Alice allergic to?"), 3)
        >>> int(np.argmax(scores)), float(scores[2])
        (0, 0.0)
    """

    def __init__(self) -> None:
        #: words changed since the packed postings were read (all words when not restored)
        self._postings: dict[str, dict[int, int]] = {}
        #: words of the documents put since (the others' are in the packed forward index)
        self._docs: dict[int, dict[str, int]] = {}
        self._lengths = np.zeros(0, dtype=np.float64)  # per document id; absent: -1
        self._count = 0
        self._total = 0
        #: packed postings (``from_state``): word -> row of ``_offsets`` (sorted words)
        self._vocab = Keys()
        self._offsets = np.zeros(1, dtype=np.int64)
        self._doc_ids = np.zeros(0, dtype=np.int32)
        self._tf = np.zeros(0, dtype=np.int32)
        #: packed forward index: document -> word rows (to remove a restored document)
        self._forward_offsets = np.zeros(1, dtype=np.int64)
        self._forward = np.zeros(0, dtype=np.int32)
        #: per word: documents and term frequencies as arrays (dropped on change)
        self._arrays: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        #: dict entries of ``_postings`` and ``_docs``, and bytes of ``_arrays``, as they
        #: change (``nbytes`` is taken at every recall)
        self._entries = 0
        self._cached = 0

    def __len__(self) -> int:
        return self._count

    @property
    def nbytes(self) -> int:
        """Bytes held: the arrays, and ~50 bytes per dict entry of changed words (47 at
        tracemalloc, a 10k-card user of bench/cold.py)."""
        arrays = (self._lengths, self._offsets, self._doc_ids, self._tf)
        packed = sum(a.nbytes for a in arrays) + self._forward.nbytes
        packed += self._forward_offsets.nbytes + self._vocab.nbytes
        return packed + 50 * self._entries + self._cached

    def put(self, doc: int, words: Iterable[str]) -> None:
        """Index ``doc`` with ``words`` (replacing what it had)."""
        self.remove(doc)
        counts = dict(Counter(words))
        self._docs[doc] = counts
        self._entries += len(counts)
        if doc >= len(self._lengths):
            grown = np.full(max(doc + 1, 2 * len(self._lengths), 16), -1.0)
            grown[: len(self._lengths)] = self._lengths
            self._lengths = grown
        length = sum(counts.values())
        self._lengths[doc] = length
        self._count += 1
        self._total += length
        for word, n in counts.items():
            posting = self._own(word)
            self._entries += doc not in posting
            posting[doc] = n

    def remove(self, doc: int) -> None:
        if doc >= len(self._lengths) or self._lengths[doc] < 0:
            return
        counts = self._docs.pop(doc, None)
        if counts is None:  # a packed document
            rows = self._forward[self._forward_offsets[doc] : self._forward_offsets[doc + 1]]
            words: Iterable[str] = [self._vocab.key(r) for r in rows.tolist()]
        else:
            words = counts
            self._entries -= len(counts)
        for word in words:
            self._entries -= self._own(word).pop(doc, None) is not None
        self._total -= int(self._lengths[doc])
        self._lengths[doc] = -1.0
        self._count -= 1

    def _own(self, word: str) -> dict[int, int]:
        """The word's postings as a dict, to change (copied out of the packed arrays)."""
        cached = self._arrays.pop(word, None)
        if cached is not None:
            self._cached -= cached[0].nbytes + cached[1].nbytes
        posting = self._postings.get(word)
        if posting is None:
            row = self._vocab.get(word)
            if row is None:
                posting = {}
            else:
                a, b = self._offsets[row], self._offsets[row + 1]
                docs, tf = self._doc_ids[a:b].tolist(), self._tf[a:b].tolist()
                posting = dict(zip(docs, tf, strict=True))
            self._postings[word] = posting
            self._entries += 1 + len(posting)
        return posting

    def state(self) -> dict[str, Any]:
        """What the index holds, packed (for ``graphmem.recall.passages`` to persist):
        its words (as ``terms`` made them), each word's documents and counts as flat
        arrays (bytes), a forward index and the document lengths."""
        words = sorted(set(self._vocab) | set(self._postings), key=str.encode)
        docs: list[np.ndarray] = []
        tfs: list[np.ndarray] = []
        kept: list[str] = []
        for word in words:
            d, t = self._read(word)
            if len(d):
                kept.append(word)
                docs.append(d.astype(np.int32))
                tfs.append(t.astype(np.int32))
        sizes = np.array([len(d) for d in docs], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        doc_ids = np.concatenate(docs) if docs else np.zeros(0, dtype=np.int32)
        tf = np.concatenate(tfs) if tfs else np.zeros(0, dtype=np.int32)
        rows = np.repeat(np.arange(len(kept), dtype=np.int32), sizes)
        order = np.argsort(doc_ids, kind="stable")
        per_doc = np.bincount(doc_ids, minlength=len(self._lengths))
        forward_offsets = np.concatenate([[0], np.cumsum(per_doc)]).astype(np.int64)
        said = [word.encode() for word in kept]
        return {
            "words": np.array(said, dtype=f"S{max(map(len, said), default=1) or 1}"),
            "offsets": offsets,
            "docs": doc_ids,
            "tf": tf,
            "forward_offsets": forward_offsets,
            "forward": rows[order],
            "lengths": self._lengths.copy(),  # changes in place
            "count": self._count,
            "total": self._total,
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> BM25:
        """The index ``state`` describes (trusted: written by ``state``); its arrays are
        kept as given (views of a saved file), copied only when a change needs it."""
        index = cls()
        index._vocab = Keys(state["words"])
        index._offsets = state["offsets"]
        index._doc_ids = state["docs"]
        index._tf = state["tf"]
        index._forward_offsets = state["forward_offsets"]
        index._forward = state["forward"]
        index._lengths = np.array(state["lengths"], dtype=np.float64)
        index._count = state["count"]
        index._total = state["total"]
        if len(index._offsets) != len(index._vocab) + 1:
            raise ValueError("packed postings do not match their words")
        return index

    def _posting(self, word: str) -> tuple[np.ndarray, np.ndarray]:
        """The word's documents and term frequencies (cached until it changes)."""
        arrays = self._arrays.get(word)
        if arrays is None:
            arrays = self._arrays[word] = self._read(word)
            self._cached += arrays[0].nbytes + arrays[1].nbytes
        return arrays

    def _read(self, word: str) -> tuple[np.ndarray, np.ndarray]:
        posting = self._postings.get(word)
        if posting is not None:
            n = len(posting)
            return (
                np.fromiter(posting.keys(), dtype=np.int64, count=n),
                np.fromiter(posting.values(), dtype=np.float64, count=n),
            )
        row = self._vocab.get(word)
        if row is None:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        a, b = self._offsets[row], self._offsets[row + 1]
        return self._doc_ids[a:b].astype(np.int64), self._tf[a:b].astype(np.float64)

    def _df(self, word: str) -> int:
        posting = self._postings.get(word)
        if posting is not None:
            return len(posting)
        row = self._vocab.get(word)
        return 0 if row is None else int(self._offsets[row + 1] - self._offsets[row])

    def idf(self, word: str) -> float:
        """Lucene's BM25 idf (never negative); a word no document has gets the largest."""
        n = self._df(word)
        return math.log(1 + (self._count - n + 0.5) / (n + 0.5))

    def scores(self, words: Iterable[str], size: int) -> np.ndarray:
        """BM25 of every document id in ``range(size)`` for the query ``words``."""
        out = np.zeros(size, dtype=np.float64)
        if not self._count:
            return out
        average = self._total / self._count
        for word in set(words):
            docs, tf = self._posting(word)
            if not len(docs):
                continue
            lengths = self._lengths[docs]
            norm = K1 * (1 - B + B * lengths / average)
            inside = docs < size
            out[docs[inside]] += (self.idf(word) * tf * (K1 + 1) / (tf + norm))[inside]
        return out

    def containing(self, words: Iterable[str]) -> np.ndarray:
        """The documents holding every one of ``words`` (ids, ascending)."""
        found: np.ndarray | None = None
        for word in set(words):
            docs = np.unique(self._posting(word)[0])
            found = docs if found is None else np.intersect1d(found, docs, assume_unique=True)
        return np.zeros(0, dtype=np.int64) if found is None else found

    def best_possible(self, words: Iterable[str]) -> float:
        """What a document of average length holding each query word once would score:
        the scale against which a score says how much of the query a passage matches."""
        return sum(self.idf(w) for w in set(words))

    def coverage(self, words: Iterable[str], docs: Iterable[int]) -> dict[int, float]:
        """The share of the words' idf weight each of ``docs`` holds, each word counted
        once: how much of what was asked a passage speaks of, however short it is (BM25
        lets a short passage holding one rare word outscore the query's whole weight).

        >>> index = BM25()
        >>> index.put(0, terms("Luis and I are doing it"))
        >>> index.put(1, terms("Luis's wife Ana is a nurse"))
        >>> shares = index.coverage(terms("luis's wife"), [0, 1])
        >>> {doc: round(share, 2) for doc, share in shares.items()}
        {0: 0.21, 1: 1.0}
        """
        unique = set(words)
        total = sum(self.idf(w) for w in unique)
        out = dict.fromkeys(docs, 0.0)
        if total <= 0:
            return out
        asked = np.fromiter(out, dtype=np.int64, count=len(out))
        for word in unique:
            held, _ = self._posting(word)
            if not len(held):
                continue
            weight = self.idf(word) / total
            for doc in asked[np.isin(asked, held)].tolist():
                out[doc] += weight
        return out
