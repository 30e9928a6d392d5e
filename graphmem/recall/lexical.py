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
        #: per document, its words and their counts: rebuilt from the postings when a
        #: restored index (``from_state``) first replaces or removes a document
        self._docs: dict[int, dict[str, int]] | None = {}
        self._postings: dict[str, dict[int, int]] = {}
        self._length: dict[int, int] = {}
        self._total = 0
        #: per word: documents, term frequencies, document lengths (dropped on change)
        self._arrays: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def __len__(self) -> int:
        return len(self._length)

    def put(self, doc: int, words: Iterable[str]) -> None:
        """Index ``doc`` with ``words`` (replacing what it had)."""
        self.remove(doc)
        counts = dict(Counter(words))
        if self._docs is not None:
            self._docs[doc] = counts
        self._length[doc] = sum(counts.values())
        self._total += self._length[doc]
        for word, n in counts.items():
            self._postings.setdefault(word, {})[doc] = n
            self._arrays.pop(word, None)

    def remove(self, doc: int) -> None:
        if doc not in self._length:
            return
        counts = self._documents().pop(doc)
        self._total -= self._length.pop(doc)
        for word in counts:
            posting = self._postings[word]
            del posting[doc]
            if not posting:
                del self._postings[word]
            self._arrays.pop(word, None)

    def state(self) -> dict[str, Any]:
        """What the index holds, as plain dicts and numbers (for
        ``graphmem.recall.passages`` to persist): the postings (each term, as ``terms``
        made it, with the documents that have it and how often) and document lengths."""
        return {"postings": self._postings, "length": self._length, "total": self._total}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> BM25:
        """The index ``state`` describes (trusted: written by ``state``)."""
        index = cls()
        index._docs = None
        index._postings = state["postings"]
        index._length = state["length"]
        index._total = state["total"]
        return index

    def _documents(self) -> dict[int, dict[str, int]]:
        if self._docs is None:
            docs: dict[int, dict[str, int]] = {doc: {} for doc in self._length}
            for word, posting in self._postings.items():
                for doc, n in posting.items():
                    docs[doc][word] = n
            self._docs = docs
        return self._docs

    def idf(self, word: str) -> float:
        """Lucene's BM25 idf (never negative); a word no document has gets the largest."""
        n = len(self._postings.get(word, ()))
        return math.log(1 + (len(self._length) - n + 0.5) / (n + 0.5))

    def scores(self, words: Iterable[str], size: int) -> np.ndarray:
        """BM25 of every document id in ``range(size)`` for the query ``words``."""
        out = np.zeros(size, dtype=np.float64)
        if not self._length:
            return out
        average = self._total / len(self._length)
        for word in set(words):
            if word not in self._postings:
                continue
            docs, tf, lengths = self._posting_arrays(word)
            norm = K1 * (1 - B + B * lengths / average)
            inside = docs < size
            out[docs[inside]] += (self.idf(word) * tf * (K1 + 1) / (tf + norm))[inside]
        return out

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
        for word in unique:
            posting = self._postings.get(word)
            if not posting:
                continue
            weight = self.idf(word) / total
            for doc in out:
                if doc in posting:
                    out[doc] += weight
        return out

    def _posting_arrays(self, word: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        arrays = self._arrays.get(word)
        if arrays is None:
            posting = self._postings[word]
            n = len(posting)
            arrays = (
                np.fromiter(posting.keys(), dtype=np.int64, count=n),
                np.fromiter(posting.values(), dtype=np.float64, count=n),
                np.fromiter((self._length[d] for d in posting), dtype=np.float64, count=n),
            )
            self._arrays[word] = arrays
        return arrays
