"""Exact cosine top-k over vectors held in this process (numpy).

Recall's vector channel scores every eligible card of the user. In the store that is a
scan of the user's cards on the server (FalkorDB: 6.5 ms p50, 11.4 ms p95 for 10k cards
at load 3, and it grows with the user); over the unit vectors recall's passages already
hold (``graphmem.recall.passages``) it is one matrix-vector product: ~1 ms for 10k x 384
float32. Same candidates: every eligible card with a vector is scored,
ties are ordered by card id, as ``cypher/exact_vector_search.cypher``'s caller does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np


def scores(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Each row of ``matrix`` dotted with ``query``, row by row: a row's score does not
    depend on the rows around it. (A BLAS product blocks rows by the matrix's size, so
    the same row scored among 100 rows or among 50 could differ in the last bit, and a
    user restored from file and caught up would not rank exactly as one read afresh;
    einsum's loop is as fast: 0.8-0.9 ms for 10k x 384, without BLAS threads.)"""
    return np.einsum("ij,j->i", matrix, query)


def unit(vector: Sequence[float] | np.ndarray) -> np.ndarray:
    """``vector`` as float32 of length 1 (a zero vector stays zero)."""
    query = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(query))
    return query / norm if norm > 0 else query


def best(
    rows: np.ndarray, scores: np.ndarray, k: int, name: Callable[[int], str]
) -> list[tuple[int, float]]:
    """The ``k`` best ``(row, score)`` pairs, best first, ties by ``name(row)`` (the card
    id): only rows tied on a score among the first ``k`` are named (naming a card decodes
    its row: 600 a recall when every score was kept for it, at 1M cards).

    >>> best(np.array([4, 7, 9, 5]), np.array([0.5, 0.9, 0.5, 0.1]), 2, lambda r: "abc"[r % 3])
    [(7, 0.9), (9, 0.5)]
    """
    if k <= 0 or not len(rows):
        return []
    if len(rows) > k:  # everything tied with the k-th best stays in for the id order
        kth = np.partition(scores, len(scores) - k)[len(scores) - k]
        keep = scores >= kth
        rows, scores = rows[keep], scores[keep]
    order = np.argsort(-scores, kind="stable")
    ranked = list(zip(rows[order].tolist(), scores[order].tolist(), strict=True))
    start = 0
    while start < min(k, len(ranked)):
        end = start + 1
        while end < len(ranked) and ranked[end][1] == ranked[start][1]:
            end += 1
        if end - start > 1:
            ranked[start:end] = sorted(ranked[start:end], key=lambda hit: name(hit[0]))
        start = end
    return ranked[:k]
