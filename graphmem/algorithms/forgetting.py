"""Forgetting: which cards have faded enough to let go.

A forgetting curve (Ebbinghaus style) with a stability that grows with what makes a
memory worth keeping::

    t  = days since the card was last reinforced = now - max(timestamp, last_accessed)
    S  = base_days * exp(w_importance * importance + w_emotion * emotion
                         + w_access * log1p(access_count) + w_reward * reward)
    R  = exp(-t / S)                  retention, in (0, 1]
    P(forget) = 1 - R

Defaults (``ForgetParams``): base_days 60, w_importance 2.0, w_emotion 1.0,
w_access 0.7, w_reward 1.0. So a default card (importance 0.5, never recalled) has
S ~ 163 days and passes P = 0.8 after ~262 days; an unimportant one (0.1) after ~118
days; recalling a card resets ``t`` and raises ``S``. Cards with importance >=
``protect_importance`` (0.8) are never forgotten; only active cards are considered.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from graphmem.algorithms.cardview import DAY_MS, CardLike, is_active


@dataclass(frozen=True)
class ForgetParams:
    """Weights of the forgetting curve (see the module docstring)."""

    base_days: float = 60.0
    w_importance: float = 2.0
    w_emotion: float = 1.0
    w_access: float = 0.7
    w_reward: float = 1.0
    protect_importance: float = 0.8


DEFAULT_PARAMS = ForgetParams()


@dataclass(frozen=True)
class ForgetDecision:
    """Forget ``card_id``; ``probability`` is P(forget) at decision time."""

    card_id: str
    probability: float
    reason: str


def _elapsed_days(card: CardLike, now_ms: int) -> float:
    last = max(card.timestamp, card.last_accessed or card.timestamp)
    return max(0.0, (now_ms - last) / DAY_MS)


def stability_days(card: CardLike, params: ForgetParams = DEFAULT_PARAMS) -> float:
    """S in days: how slowly this card fades."""
    exponent = (
        params.w_importance * card.importance
        + params.w_emotion * card.emotion
        + params.w_access * math.log1p(card.access_count)
        + params.w_reward * card.reward
    )
    return params.base_days * math.exp(exponent)


def retention(card: CardLike, now_ms: int, params: ForgetParams = DEFAULT_PARAMS) -> float:
    """R = exp(-t / S), 1.0 for a card reinforced just now."""
    return math.exp(-_elapsed_days(card, now_ms) / stability_days(card, params))


def forget_probability(card: CardLike, now_ms: int, params: ForgetParams = DEFAULT_PARAMS) -> float:
    """P(forget) = 1 - R.

    Examples:
        >>> from graphmem.algorithms.cardview import CardView
        >>> year = 365 * 86_400_000
        >>> round(forget_probability(CardView("c", importance=0.1), year), 4)
        0.9931
        >>> round(forget_probability(CardView("c", importance=0.1, access_count=3,
        ...                                   last_accessed=year - 86_400_000), year), 4)
        0.0052
    """
    return 1.0 - retention(card, now_ms, params)


def forget_reasons(card: CardLike, now_ms: int, params: ForgetParams = DEFAULT_PARAMS) -> str:
    """Why a card fades, for people: "old (412 days), low importance 0.1, never recalled".

    Examples:
        >>> from graphmem.algorithms.cardview import CardView
        >>> forget_reasons(CardView("c", importance=0.1), 412 * 86_400_000)
        'old (412 days), low importance 0.1, never recalled, P(forget)=1.00'
    """
    age = max(0, (now_ms - card.timestamp) // DAY_MS)
    parts = [f"old ({age} days)"]
    if card.importance < 0.3:
        parts.append(f"low importance {card.importance:g}")
    if card.last_accessed is None or card.access_count == 0:
        parts.append("never recalled")
    else:
        since = max(0, (now_ms - card.last_accessed) // DAY_MS)
        parts.append(f"recalled {card.access_count}x, last {since} days ago")
    if card.reward < 0:
        parts.append(f"negative feedback {card.reward:g}")
    parts.append(f"P(forget)={forget_probability(card, now_ms, params):.2f}")
    return ", ".join(parts)


def select_forgettable(
    cards: Iterable[CardLike],
    now_ms: int,
    *,
    threshold: float = 0.8,
    capacity: int | None = None,
    params: ForgetParams = DEFAULT_PARAMS,
) -> list[ForgetDecision]:
    """Active, unprotected cards to forget, most faded first.

    A card goes when P(forget) >= ``threshold``. With ``capacity``, if more active
    cards than that would remain, the lowest-retention unprotected ones go too (older
    first on ties, then by id) until ``capacity`` is met or only protected cards remain.

    Examples:
        >>> from graphmem.algorithms.cardview import CardView
        >>> day = 86_400_000
        >>> cards = [CardView("old", importance=0.1), CardView("new", timestamp=300 * day)]
        >>> [(d.card_id, round(d.probability, 3)) for d in select_forgettable(cards, 301 * day)]
        [('old', 0.984)]
    """
    active = [c for c in cards if is_active(c)]
    scored = sorted(
        ((forget_probability(c, now_ms, params), c) for c in active),
        key=lambda pc: (-pc[0], pc[1].timestamp, str(pc[1].id)),
    )
    decisions: list[ForgetDecision] = []
    keep: list[tuple[float, CardLike]] = []
    for probability, card in scored:
        if card.importance < params.protect_importance and probability >= threshold:
            decisions.append(
                ForgetDecision(str(card.id), probability, forget_reasons(card, now_ms, params))
            )
        else:
            keep.append((probability, card))
    if capacity is not None:
        excess = len(keep) - max(0, capacity)
        for probability, card in keep:  # already lowest retention first
            if excess <= 0:
                break
            if card.importance >= params.protect_importance:
                continue
            reason = (
                f"over capacity ({len(active)} active > {capacity}), lowest retention "
                f"{1 - probability:.2f}: {forget_reasons(card, now_ms, params)}"
            )
            decisions.append(ForgetDecision(str(card.id), probability, reason))
            excess -= 1
    return decisions


__all__ = [
    "DEFAULT_PARAMS",
    "ForgetDecision",
    "ForgetParams",
    "forget_probability",
    "forget_reasons",
    "retention",
    "select_forgettable",
    "stability_days",
]
