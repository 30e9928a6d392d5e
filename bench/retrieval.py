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

#: NLTK's English stop word list (nltk.corpus.stopwords, 179 words), as the baseline uses it.
NLTK_STOP_WORDS = frozenset(
    """i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself
    yourselves he him his himself she she's her hers herself it it's its itself they them their
    theirs themselves what which who whom this that that'll these those am is are was were be
    been being have has had having do does did doing a an the and but if or because as until
    while of at by for with about against between into through during before after above below
    to from up down in out on off over under again further then once here there when where why
    how all any both each few more most other some such no nor not only own same so than too
    very s t can will just don don't should should've now d ll m o re ve y ain aren aren't
    couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma
    mightn mightn't mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren
    weren't won won't wouldn wouldn't""".split()
)
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


def dense_ranks(docs: list[str], queries: list[str], embed: Embed) -> list[list[int]]:
    """Per query, every document's index best first by cosine of their embeddings."""
    matrix = unit(embed(docs))
    return [
        np.argsort(-(matrix @ vector), kind="stable").tolist() for vector in unit(embed(queries))
    ]


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
