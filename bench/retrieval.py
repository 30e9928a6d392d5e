"""What the recall benches share: the raw-turn baselines (BM25, dense) and turn mapping.

``bench/locomo.py`` and ``bench/chats.py`` compare graphmem with the same two baselines over
a conversation's raw turns, and map recall's hits back to turns the same way (the turn a
card came from, first occurrence kept), so both live here once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from graphmem.embedding import Embedder
from graphmem.lang.en import STOP_WORDS

#: NLTK's English stop word list (nltk.corpus.stopwords, 179 words), as the baseline uses it:
#: the list graphmem's own English tokeniser leaves out (``graphmem.lang.en``).
NLTK_STOP_WORDS = STOP_WORDS
#: CJK ideographs (unified, extension A, compatibility), kana and hangul syllables.
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
_CJK_RUN = re.compile(f"[{_CJK}]+")

Embed = Callable[[list[str]], np.ndarray]


def words(text: str) -> list[str]:
    """Lower-cased words, apostrophes kept, NLTK's stop words removed.

    >>> words("I've been to Osaka, it's great")
    ["i've", 'osaka', 'great']
    """
    return [w for w in re.findall(r"\w[\w']*", text.lower()) if w not in NLTK_STOP_WORDS]


def tokens(text: str) -> list[str]:
    """BM25 tokens for text in any script: character bigrams of each CJK run (a lone
    character as itself), ``words`` for the text between. Text without CJK gives exactly
    ``words(text)``, so one tokeniser serves English, Chinese and a mix.

    >>> tokens("我妹妹在Apple工作了")
    ['我妹', '妹妹', '妹在', 'apple', '工作', '作了']
    >>> tokens("my sister works at Apple") == words("my sister works at Apple")
    True
    """
    out: list[str] = []
    start = 0
    for run in _CJK_RUN.finditer(text):
        out += words(text[start : run.start()])
        chars = run.group()
        out += [chars] if len(chars) == 1 else [chars[i : i + 2] for i in range(len(chars) - 1)]
        start = run.end()
    return out + words(text[start:])


def bm25_ranks(docs: Sequence[list[str]], queries: Iterable[list[str]]) -> list[list[int]]:
    """Per query, every document's index best first: Okapi BM25 (``rank_bm25``, k1 1.5,
    b 0.75), ties in document order."""
    from rank_bm25 import BM25Okapi

    index = BM25Okapi(list(docs))
    return [np.argsort(-index.get_scores(q), kind="stable").tolist() for q in queries]


def dense_ranks(
    docs: list[str], queries: list[str], embed: Embed, embedder: Embedder | None = None
) -> list[list[int]]:
    """Per query, every document's index best first by cosine of their embeddings. With
    ``embedder`` (whose ``embed`` is ``embed``), a document embedded by another model than
    the query is compared with the query's vector there (``Embedder.across``), as recall
    does: an English question over Chinese turns."""
    matrix = unit(embed(docs))
    spaces = np.array(embedder.spaces(docs) if embedder else [0] * len(docs))
    ranks = []
    for query, vector in zip(queries, unit(embed(queries)), strict=True):
        scores = matrix @ vector
        if embedder is not None:
            for space, there in embedder.across(query, set(spaces.tolist())).items():
                moved = spaces == space
                scores[moved] = matrix[moved] @ unit(there[None, :])[0]
        ranks.append(np.argsort(-scores, kind="stable").tolist())
    return ranks


def unit(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1 (a zero row stays zero)."""
    matrix = np.asarray(matrix, dtype=np.float32)
    return matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)


def hit_turns(hits: Iterable[Any]) -> list[tuple[str, int]]:
    """The (session_id, turn) each recall hit's card came from, best first, each once;
    hits without a turn (abstractions, documents) are skipped."""
    ranked: dict[tuple[str, int], None] = {}
    for hit in hits:
        source = hit.card.source
        if source is not None and source.session_id is not None and source.turn is not None:
            ranked.setdefault((source.session_id, source.turn))
    return list(ranked)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile by nearest rank.

    >>> percentile([1, 2, 3, 4, 5], 50), percentile([1, 2, 3, 4, 5], 95)
    (3, 5)
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]
