"""Clustering-based abstraction: group similar cards, name each group by a summary.

``similarity_graph`` links each card to its nearest neighbours (cosine, chunked numpy),
``clusters`` runs Louvain community detection on it, ``medoid``/``rank_by_centrality``
pick the representative card, ``summarize_extractive`` writes the abstraction text.
``match_clusters`` maps a new run onto the abstractions already stored, so re-running
updates them instead of duplicating them, and ``incremental_assign`` lets new cards
join existing clusters without re-running Louvain.

Embeddings are a ``(n, d)`` matrix whose row ``i`` belongs to ``ids[i]``; rows are
L2-normalised here (the caller's usually are already).
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np
from networkx.utils import py_random_state

from graphmem.algorithms.cardview import normalise_rows

#: Upper bound on the similarity cells computed at once (float32: 4 bytes each).
MAX_BLOCK_CELLS = 16_000_000


def top_k_neighbours(
    embeddings: Any, *, k: int, min_similarity: float = -1.0, chunk_rows: int = 1024
) -> list[list[tuple[int, float]]]:
    """Per row, the indices and cosines of its ``k`` most similar other rows.

    Row blocks are sized so a block never exceeds ``MAX_BLOCK_CELLS`` cells: 100k x 384
    never builds a 100k x 100k matrix. Neighbours are sorted by similarity, then index.

    Examples:
        >>> top_k_neighbours([[1, 0], [0.6, 0.8], [0, 1]], k=1)
        [[(1, 0.6)], [(2, 0.8)], [(1, 0.8)]]
    """
    matrix = normalise_rows(embeddings)
    n = len(matrix)
    k = min(k, n - 1)
    if k <= 0:
        return [[] for _ in range(n)]
    step = max(1, min(chunk_rows, MAX_BLOCK_CELLS // max(n, 1)))
    result: list[list[tuple[int, float]]] = []
    for start in range(0, n, step):
        stop = min(start + step, n)
        block = matrix[start:stop] @ matrix.T
        block[np.arange(stop - start), np.arange(start, stop)] = -np.inf
        rows, cols, sims = _block_top_k(block, k, min_similarity)
        per_row: list[list[tuple[int, float]]] = [[] for _ in range(stop - start)]
        for r, c, s in zip(rows.tolist(), cols.tolist(), sims.tolist(), strict=True):
            per_row[r].append((c, round(s, 6)))
        result.extend(per_row)
    return result


def _block_top_k(
    block: np.ndarray, k: int, min_similarity: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row, col, sim) of each row's top ``k`` cells >= ``min_similarity``, sorted by row,
    similarity descending, then column."""
    mask = block >= min_similarity
    if np.count_nonzero(mask) > 8 * k * len(block):
        # Dense: partition every row, then drop what is under the threshold.
        cols = np.argpartition(block, block.shape[1] - k, axis=1)[:, -k:]
        rows = np.repeat(np.arange(len(block)), k)
        cols = cols.ravel()
        keep = block[rows, cols] >= min_similarity
        rows, cols = rows[keep], cols[keep]
    else:
        # Sparse (the usual case with a real threshold): only look at cells above it.
        rows, cols = np.nonzero(mask)
    sims = block[rows, cols]
    order = np.lexsort((cols, -sims, rows))
    rows, cols, sims = rows[order], cols[order], sims[order]
    rank = np.arange(len(rows)) - np.searchsorted(rows, rows, side="left")
    keep = rank < k
    return rows[keep], cols[keep], sims[keep]


def similarity_graph(
    ids: Sequence[str],
    embeddings: Any,
    *,
    k: int = 10,
    threshold: float = 0.55,
    chunk_rows: int = 1024,
) -> nx.Graph:
    """Undirected kNN graph: an edge when either card is in the other's top ``k``
    with cosine >= ``threshold``; ``weight`` is the cosine. Every id is a node.

    Examples:
        >>> g = similarity_graph(["a", "b", "c"], [[1, 0], [0.9, 0.1], [0, 1]], k=1)
        >>> sorted(g.edges(data="weight")), sorted(g.nodes)
        ([('a', 'b', 0.993884)], ['a', 'b', 'c'])
    """
    ids = [str(i) for i in ids]
    if len(ids) != len(embeddings):
        raise ValueError(f"{len(ids)} ids but {len(embeddings)} embedding rows")
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    rows = top_k_neighbours(embeddings, k=k, min_similarity=threshold, chunk_rows=chunk_rows)
    for i, neighbours in enumerate(rows):
        for j, sim in neighbours:
            graph.add_edge(ids[i], ids[j], weight=sim)
    return graph


def _cluster_order(members: frozenset[str]) -> tuple[int, str]:
    return (-len(members), min(members))


@py_random_state("seed")
def clusters(
    graph: nx.Graph, *, seed: Any = None, resolution: float = 1.0, min_size: int = 3
) -> list[frozenset[str]]:
    """Louvain communities with at least ``min_size`` members, largest first.

    ``seed`` (None, an int or a ``random.Random``) pins the partition. Nodes are fed
    in sorted order so the result does not depend on insertion order. Each node is in
    at most one cluster (exactly one when ``min_size`` is 1).

    Examples:
        >>> g = nx.Graph([("a", "b"), ("b", "c"), ("a", "c"), ("x", "y"), ("y", "z"),
        ...               ("x", "z"), ("c", "x")])
        >>> [sorted(c) for c in clusters(g, seed=7)]
        [['a', 'b', 'c'], ['x', 'y', 'z']]
    """
    ordered = nx.Graph()
    ordered.add_nodes_from(sorted(graph.nodes))
    ordered.add_weighted_edges_from(
        sorted((min(u, v), max(u, v), w) for u, v, w in graph.edges(data="weight", default=1.0))
    )
    found = nx.community.louvain_communities(
        ordered, weight="weight", resolution=resolution, seed=seed
    )
    kept = [frozenset(c) for c in found if len(c) >= min_size]
    return sorted(kept, key=_cluster_order)


def rank_by_centrality(ids: Sequence[str], embeddings: Any) -> list[str]:
    """Ids ordered by summed cosine to the other members, most central first.

    Examples:
        >>> rank_by_centrality(["a", "b", "c"], [[1, 0], [0.8, 0.6], [0, 1]])
        ['b', 'a', 'c']
    """
    matrix = normalise_rows(embeddings)
    scores = matrix @ matrix.sum(axis=0)
    return [str(ids[i]) for i in sorted(range(len(ids)), key=lambda i: (-scores[i], ids[i]))]


def medoid(ids: Sequence[str], embeddings: Any) -> str:
    """The member closest to all others (highest summed cosine): the representative."""
    if len(ids) == 0:
        raise ValueError("medoid of an empty cluster")
    return rank_by_centrality(ids, embeddings)[0]


def _strip_subject(fact: str, subject: str | None) -> str:
    fact = fact.strip().rstrip(".")
    if subject:
        fact = re.sub(rf"^{re.escape(subject)}(?:'s)?\s+", "", fact, flags=re.IGNORECASE)
    return fact


def summarize_extractive(
    facts: Sequence[str],
    representative: str | None = None,
    *,
    subject: str | None = None,
    max_items: int = 4,
    max_chars: int = 240,
) -> str:
    """A short general statement built from the most central facts.

    ``facts`` should be ordered most central first (``rank_by_centrality``);
    ``representative`` (the medoid's fact) leads. The subject's name is written once.

    Examples:
        >>> summarize_extractive(["Alice likes hiking", "Alice likes climbing",
        ...                       "Alice enjoys trail running", "Alice likes hiking",
        ...                       "Alice goes camping", "Alice owns a tent"],
        ...                      subject="Alice")
        'Alice: likes hiking; likes climbing; enjoys trail running; goes camping … (6 memories)'
    """
    ordered = ([representative] if representative else []) + list(facts)
    parts: list[str] = []
    seen: set[str] = set()
    for fact in ordered:
        text = _strip_subject(fact, subject)
        if text and text.lower() not in seen:
            seen.add(text.lower())
            parts.append(text)
    shown = parts[:max_items]
    head = f"{subject}: " if subject else ""
    more = " …" if len(parts) > len(shown) else ""
    tail = f" ({len(facts)} {'memory' if len(facts) == 1 else 'memories'})"
    body = "; ".join(shown)
    room = max_chars - len(head) - len(tail) - 2
    if len(body) > room:
        body = body[: max(room, 1)].rstrip(" ;,") + "…"
        more = ""
    return f"{head}{body}{more}{tail}"


def common_subject(persons: Iterable[str]) -> str | None:
    """The person most members are about, if they are the majority, else None."""
    counts = Counter(p for p in persons if p)
    if not counts:
        return None
    person, count = min(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return person if count * 2 > sum(counts.values()) else None


@dataclass(frozen=True)
class Summary:
    """An abstraction text and how it was made (``source``: "llm" or "extractive")."""

    text: str
    source: str
    reason: str


_SUMMARY_INSTRUCTIONS = (
    "Write one short sentence (at most 30 words) that generalises the following "
    "memories about a person. Use only what they say. Reply with the sentence only."
)


def summarize_with_llm(
    facts: Sequence[str],
    chat_model: Any,
    *,
    subject: str | None = None,
    attempts: int = 2,
    max_chars: int = 300,
) -> Summary:
    """Ask a langchain-core chat model for a one-sentence generalisation.

    Any failure (error, empty or over-long reply, after ``attempts`` tries) falls back
    to ``summarize_extractive`` and the reason says why.
    """
    from langchain_core.messages import HumanMessage, SystemMessage

    from graphmem import llm

    listing = "\n".join(f"- {f}" for f in facts[:30])
    who = f"Person: {subject}\n" if subject else ""
    messages = [SystemMessage(_SUMMARY_INSTRUCTIONS), HumanMessage(f"{who}{listing}")]

    def sentence(reply: str) -> str:
        text = " ".join(reply.split())
        if not text or len(text) > max_chars or text.startswith(("{", "[")):
            raise ValueError(f"unusable reply {text[:60]!r}")
        return text

    try:
        text = llm.ask(chat_model, messages, sentence, attempts=attempts)
    except Exception as exc:
        fallback = summarize_extractive(facts, subject=subject)
        return Summary(
            fallback,
            "extractive",
            f"LLM summary failed ({type(exc).__name__}: {exc}); extractive used",
        )
    return Summary(text, "llm", f"LLM summary of {len(facts)} memories")


def abstraction_id(members: Iterable[str]) -> str:
    """Stable id for a new abstraction: a hash of its sorted member ids.

    >>> abstraction_id(["c2", "c1"]) == abstraction_id(["c1", "c2"])
    True
    """
    key = "\n".join(sorted(str(m) for m in members))
    return "abs-" + hashlib.sha256(key.encode()).hexdigest()[:24]


@dataclass(frozen=True)
class ClusterMatch:
    """How a new clustering maps onto the stored abstractions.

    ``updated``: existing abstraction id -> its new members; ``created``: new id ->
    members; ``retired``: existing ids no new cluster matched; ``reasons``: why, per id.
    """

    updated: dict[str, frozenset[str]]
    created: dict[str, frozenset[str]]
    retired: frozenset[str]
    reasons: dict[str, str]


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def match_clusters(
    new_clusters: Iterable[frozenset[str]],
    existing: Mapping[str, frozenset[str]],
    *,
    min_jaccard: float = 0.5,
) -> ClusterMatch:
    """Pair new clusters with existing abstractions (greedy, best Jaccard first).

    Each side is used at most once; a pair needs Jaccard >= ``min_jaccard``.

    Examples:
        >>> m = match_clusters([frozenset("abcd"), frozenset("xyz")],
        ...                    {"abs-old": frozenset("abc"), "abs-gone": frozenset("pq")})
        >>> sorted(m.updated["abs-old"]), sorted(m.retired), len(m.created)
        (['a', 'b', 'c', 'd'], ['abs-gone'], 1)
    """
    fresh = sorted({frozenset(c) for c in new_clusters}, key=sorted)
    scored = []
    for i, members in enumerate(fresh):
        for aid, old in existing.items():
            score = _jaccard(members, frozenset(old))
            if score >= min_jaccard:
                scored.append((-score, aid, i))
    scored.sort()
    updated: dict[str, frozenset[str]] = {}
    reasons: dict[str, str] = {}
    used: set[int] = set()
    for neg_score, aid, i in scored:
        if aid in updated or i in used:
            continue
        used.add(i)
        updated[aid] = fresh[i]
        reasons[aid] = (
            f"updated: Jaccard {-neg_score:.2f} with the new cluster "
            f"({len(existing[aid])} -> {len(fresh[i])} members)"
        )
    created: dict[str, frozenset[str]] = {}
    for i, members in enumerate(fresh):
        if i not in used:
            aid = abstraction_id(members)
            created[aid] = members
            reasons[aid] = f"new cluster of {len(members)} members matched no abstraction"
    retired = frozenset(aid for aid in existing if aid not in updated)
    for aid in retired:
        reasons[aid] = f"retired: no new cluster overlaps it with Jaccard >= {min_jaccard}"
    return ClusterMatch(
        dict(sorted(updated.items())),
        dict(sorted(created.items())),
        retired,
        dict(sorted(reasons.items())),
    )


def cluster_centroids(
    groups: Mapping[str, Iterable[str]], ids: Sequence[str], embeddings: Any
) -> dict[str, np.ndarray]:
    """Unit-length mean embedding of each group (ids missing from ``ids`` are skipped)."""
    matrix = normalise_rows(embeddings)
    row = {str(cid): i for i, cid in enumerate(ids)}
    result: dict[str, np.ndarray] = {}
    for gid, members in groups.items():
        rows = [row[m] for m in members if m in row]
        if rows:
            result[gid] = normalise_rows(matrix[rows].mean(axis=0, keepdims=True))[0]
    return result


def incremental_assign(
    new_ids: Sequence[str],
    new_embeddings: Any,
    centroids: Mapping[str, Any],
    *,
    threshold: float = 0.6,
) -> dict[str, str | None]:
    """Each new card's closest centroid if its cosine is >= ``threshold``, else None.

    Lets a batch of new cards join existing abstractions without re-running Louvain;
    re-cluster from scratch once many cards stay unassigned.

    Examples:
        >>> incremental_assign(["n1", "n2"], [[1, 0.1], [-1, 0]],
        ...                    {"abs-x": [1, 0], "abs-y": [0, 1]})
        {'n1': 'abs-x', 'n2': None}
    """
    if not centroids or len(new_ids) == 0:
        return {str(i): None for i in new_ids}
    names = sorted(centroids)
    centres = normalise_rows(np.stack([np.asarray(centroids[n], dtype=np.float32) for n in names]))
    sims = normalise_rows(new_embeddings) @ centres.T
    best = np.argmax(sims, axis=1)  # first (alphabetical) wins a tie
    return {
        str(cid): (names[b] if sims[i, b] >= threshold else None)
        for i, (cid, b) in enumerate(zip(new_ids, best.tolist(), strict=True))
    }


__all__ = [
    "ClusterMatch",
    "Summary",
    "abstraction_id",
    "cluster_centroids",
    "clusters",
    "common_subject",
    "incremental_assign",
    "match_clusters",
    "medoid",
    "rank_by_centrality",
    "similarity_graph",
    "summarize_extractive",
    "summarize_with_llm",
    "top_k_neighbours",
]
