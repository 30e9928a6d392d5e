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
        self._docs: dict[int, Counter[str]] = {}
        self._postings: dict[str, dict[int, int]] = {}
        self._length: dict[int, int] = {}
        self._total = 0
        #: per word: documents, term frequencies, document lengths (dropped on change)
        self._arrays: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def __len__(self) -> int:
        return len(self._docs)

    def put(self, doc: int, words: Iterable[str]) -> None:
        """Index ``doc`` with ``words`` (replacing what it had)."""
        self.remove(doc)
        counts = Counter(words)
        self._docs[doc] = counts
        self._length[doc] = sum(counts.values())
        self._total += self._length[doc]
        for word, n in counts.items():
            self._postings.setdefault(word, {})[doc] = n
            self._arrays.pop(word, None)

    def remove(self, doc: int) -> None:
        counts = self._docs.pop(doc, None)
        if counts is None:
            return
        self._total -= self._length.pop(doc)
        for word in counts:
            posting = self._postings[word]
            del posting[doc]
            if not posting:
                del self._postings[word]
            self._arrays.pop(word, None)

    def idf(self, word: str) -> float:
        """Lucene's BM25 idf (never negative); a word no document has gets the largest."""
        n = len(self._postings.get(word, ()))
        return math.log(1 + (len(self._docs) - n + 0.5) / (n + 0.5))

    def scores(self, words: Iterable[str], size: int) -> np.ndarray:
        """BM25 of every document id in ``range(size)`` for the query ``words``."""
        out = np.zeros(size, dtype=np.float64)
        if not self._docs:
            return out
        average = self._total / len(self._docs)
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
