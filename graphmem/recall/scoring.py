"""Fusion and final scoring of recall candidates: plain functions over plain data.

1. Each channel (vector, full-text, graph) ranks candidates; score-aware reciprocal-rank
   fusion turns them into one relevance: ``sum(weight * score / top / (RRF_K + rank))``
   where ``score / top`` is the candidate's score relative to the channel's best. Plain
   RRF counts a weak full-text match on one common word like a strong one; scaling by
   the relative score keeps ranks comparable across channels while letting a channel say
   how sure it is (on bench/data/eval: MRR 0.41 -> 0.48, "updated" questions 0.26 ->
   0.47). Normalised so the best possible (top of every channel) is 1.
2. The final score mixes that relevance with what a memory is worth right now::

       final = relevance * (W_REL + W_RECENCY * recency + W_IMPORTANCE * importance
                            + W_CONFIDENCE * confidence + W_REWARD * reward)

   with ``recency = 0.5 ** (age_days / HALF_LIFE_DAYS)`` and reward in [-1, 1].
   Multiplying keeps an irrelevant but important card from floating to the top;
   superseded cards (shown only on request) are halved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: Small: the rank inside a channel matters, not just how many channels found a card
#: (bench/data/eval, 320 questions: MRR 0.663 at 60 -> 0.708 at 3).
RRF_K = 3
HALF_LIFE_DAYS = 180.0
W_REL, W_RECENCY, W_IMPORTANCE, W_CONFIDENCE, W_REWARD = 0.55, 0.15, 0.15, 0.10, 0.10
SUPERSEDED_FACTOR = 0.5
#: the largest ``final / relevance`` can be (recency, importance, confidence, reward all 1)
MAX_WORTH = W_REL + W_RECENCY + W_IMPORTANCE + W_CONFIDENCE + W_REWARD
DAY_MS = 86_400_000


@dataclass(frozen=True)
class Ranked:
    """One channel's candidates, best first, with the channel's own score."""

    channel: str
    ids: tuple[str, ...]
    scores: tuple[float, ...]
    weight: float = 1.0


def fuse(rankings: Sequence[Ranked]) -> dict[str, float]:
    """Score-aware reciprocal-rank fusion, normalised to [0, 1].

    Examples:
        >>> a = Ranked("vector", ("x", "y"), (0.9, 0.45))
        >>> b = Ranked("fulltext", ("y",), (3.0,))
        >>> {k: round(v, 3) for k, v in fuse([a, b]).items()}
        {'x': 0.5, 'y': 0.7}
    """
    best = sum(r.weight for r in rankings) / (RRF_K + 1) or 1.0
    fused: dict[str, float] = {}
    for ranking in rankings:
        top = max(ranking.scores, default=0.0)
        for rank, (card_id, score) in enumerate(
            zip(ranking.ids, ranking.scores, strict=True), start=1
        ):
            relative = max(0.0, score) / top if top > 0 else 1.0
            fused[card_id] = fused.get(card_id, 0.0) + ranking.weight * relative / (RRF_K + rank)
    return {card_id: value / best for card_id, value in fused.items()}


def recency(timestamp_ms: int, now_ms: int, half_life_days: float = HALF_LIFE_DAYS) -> float:
    """1 for now, 0.5 after one half-life; future dates count as now.

    >>> recency(0, 180 * DAY_MS)
    0.5
    """
    age_days = max(0.0, (now_ms - timestamp_ms) / DAY_MS)
    return 0.5 ** (age_days / half_life_days)


def final_score(relevance: float, card: Mapping[str, object], now_ms: int) -> dict[str, float]:
    """The final score and its parts, for one card given as a mapping of its fields."""
    parts = {
        "relevance": relevance,
        "recency": recency(int(card["timestamp"]), now_ms),  # type: ignore[call-overload]
        "importance": float(card.get("importance", 0.5)),  # type: ignore[arg-type]
        "confidence": float(card.get("confidence", 0.8)),  # type: ignore[arg-type]
        "reward": float(card.get("reward", 0.0)),  # type: ignore[arg-type]
    }
    worth = (
        W_REL
        + W_RECENCY * parts["recency"]
        + W_IMPORTANCE * parts["importance"]
        + W_CONFIDENCE * parts["confidence"]
        + W_REWARD * parts["reward"]
    )
    score = relevance * worth
    if card.get("status") == "superseded":
        score *= SUPERSEDED_FACTOR
    parts["score"] = score
    return parts
