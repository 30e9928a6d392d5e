"""Forgetting: what may be let go, and what never is.

Safe by construction: ``protection`` decides first, and a protected card is never
scored. Protected, whatever its age:

- the **current value** of something (an active card that makes a claim, see
  ``graphmem.algorithms.conflicts.claim_of``: where the user lives, works, who their
  manager is; nothing has superseded it, so it is what memory believes now);
- **preferences and constraints** (category preference, constraint or health, or a
  claim on a like, a favourite, a preferred pick, a diet, an allergy, a language);
- **identity and relationships**: how someone relates to the user ("my sister Ana",
  "Tom is no longer my manager") - claims on the user's roles are current values too;
- anything with **positive feedback**, or **cited by an open task**.

What may go, and only once it has faded:

- a card **superseded** long ago (its successor holds the current value; the
  SUPERSEDES edge and the card's history keep the story);
- a card **summarised by an abstraction** that is not among the abstraction's most
  central cards (those stay, so the abstraction keeps standing for it);
- a **trivial** card (importance below ``ForgetParams.trivial``).

Fading follows a forgetting curve whose clock is the user's own activity, not the
wall clock: ``t`` counts the days on which the user said something (days with cards)
after the card was last reinforced (said, recalled, or superseded). A user who comes
back after a dormant year finds everything as they left it::

    t  = active days since max(timestamp, last_accessed, valid_to)
    S  = base_days * exp(w_importance * importance + w_emotion * emotion
                         + w_access * log1p(access_count) + w_reward * reward)
    R  = exp(-t / S)                  retention, in (0, 1]
    P(forget) = 1 - R

Defaults (``ForgetParams``): base_days 60, w_importance 2.0, w_emotion 1.0,
w_access 0.7, w_reward 1.0. So a superseded card of importance 0.5, never recalled,
passes P = 0.8 after ~262 active days; a trivial one (0.1) after ~118.
``capacity`` caps a user's active cards: the least retained unprotected cards go first
(any unprotected card, not only the three kinds above), protected ones never.
Nothing here deletes: consolidation soft-forgets (``Memory.restore`` brings a card
back); only ``Memory.forget(..., hard=True)`` erases.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from graphmem.algorithms.cardview import DAY_MS, CardLike
from graphmem.algorithms.conflicts import card_claim
from graphmem.relationships import WORDS


@dataclass(frozen=True)
class ForgetParams:
    """Weights of the forgetting curve and the trivial-card cut (module docstring)."""

    base_days: float = 60.0
    w_importance: float = 2.0
    w_emotion: float = 1.0
    w_access: float = 0.7
    w_reward: float = 1.0
    trivial: float = 0.3


DEFAULT_PARAMS = ForgetParams()

#: Categories never forgotten: what the user wants, cannot have, or lives with.
KEPT_CATEGORIES = frozenset({"preference", "constraint", "health"})
_PREFERENCE_CLAIMS = ("likes:", "favourite ", "preferred ", "diet", "allergy", "reply language")
_WORDS = "|".join(sorted((re.escape(w) for w in WORDS), key=len, reverse=True))
#: "my sister", "our neighbour Tom", "Bob, my manager": a fact about how someone relates.
_RELATIONSHIP = re.compile(rf"\b(?:my|our)\s+(?:[\w-]+\s+){{0,2}}?(?:{_WORDS})\b", re.IGNORECASE)


@dataclass(frozen=True)
class ForgetDecision:
    """Forget ``card_id``; ``probability`` is P(forget) at decision time."""

    card_id: str
    probability: float
    reason: str


def protection(
    card: CardLike, *, cited: Collection[str] = (), category: str | None = None
) -> str | None:
    """Why a card is never forgotten, or None when it may fade.

    Examples:
        >>> from graphmem.algorithms.cardview import CardView
        >>> protection(CardView("a", "I moved to Montreal"))
        'current value of location'
        >>> protection(CardView("b", "I prefer bullet points"))
        'preference'
        >>> protection(CardView("c", "My sister Nina visited"))
        'relationship'
        >>> protection(CardView("d", "The winters here are brutal")) is None
        True
        >>> protection(CardView("e", "I moved to Lyon", status="superseded")) is None
        True
    """
    category = category or str(getattr(card, "category", "other") or "other")
    if str(card.status) == "superseded":
        return None  # its successor is the current value
    if str(card.id) in cited:
        return "cited by an open task"
    if card.reward > 0:
        return "positive feedback"
    if category in KEPT_CATEGORIES:
        return category
    found = card_claim(card)
    if found is not None:
        if found.attribute.startswith(_PREFERENCE_CLAIMS):
            return "preference"
        if found.attribute.startswith("my "):
            return "relationship"
        return f"current value of {found.attribute}"
    if _RELATIONSHIP.search(card.fact):
        return "relationship"
    return None


def _day(ms: int) -> int:
    return ms // DAY_MS


def active_days(timestamps: Iterable[int]) -> list[int]:
    """The days (epoch day numbers) on which the user said something, sorted.

    >>> active_days([0, 3_600_000, 2 * 86_400_000])
    [0, 2]
    """
    return sorted({_day(t) for t in timestamps})


def _reinforced(card: CardLike) -> int:
    """When the card was last reinforced: said, recalled, or (superseded) replaced."""
    last = max(card.timestamp, card.last_accessed or card.timestamp)
    valid_to = getattr(card, "valid_to", None)
    if str(card.status) == "superseded" and valid_to is not None:
        last = max(last, int(valid_to))
    return last


def elapsed(card: CardLike, days: Sequence[int], now_ms: int) -> int:
    """Active days after the card was last reinforced, up to ``now_ms``."""
    start, end = _day(_reinforced(card)), _day(now_ms)
    return max(0, bisect.bisect_right(days, end) - bisect.bisect_right(days, start))


def stability_days(card: CardLike, params: ForgetParams = DEFAULT_PARAMS) -> float:
    """S in active days: how slowly this card fades."""
    exponent = (
        params.w_importance * card.importance
        + params.w_emotion * card.emotion
        + params.w_access * math.log1p(card.access_count)
        + params.w_reward * card.reward
    )
    return params.base_days * math.exp(exponent)


def retention(
    card: CardLike, days: Sequence[int], now_ms: int, params: ForgetParams = DEFAULT_PARAMS
) -> float:
    """R = exp(-t / S), 1.0 for a card reinforced since the user's last active day."""
    return math.exp(-elapsed(card, days, now_ms) / stability_days(card, params))


def forget_probability(
    card: CardLike, days: Sequence[int], now_ms: int, params: ForgetParams = DEFAULT_PARAMS
) -> float:
    """P(forget) = 1 - R.

    Examples:
        >>> from graphmem.algorithms.cardview import CardView
        >>> day = 86_400_000
        >>> busy = list(range(400))  # the user was active every day
        >>> round(forget_probability(CardView("c", importance=0.1), busy, 400 * day), 4)
        0.9957
        >>> quiet = [0]  # ... or said this once and nothing since
        >>> forget_probability(CardView("c", importance=0.1), quiet, 400 * day)
        0.0
    """
    return 1.0 - retention(card, days, now_ms, params)


def forget_reasons(
    card: CardLike,
    days: Sequence[int],
    now_ms: int,
    why: str,
    params: ForgetParams = DEFAULT_PARAMS,
) -> str:
    """Why a card fades, for people: "superseded, 412 active days since, never recalled".

    Examples:
        >>> from graphmem.algorithms.cardview import CardView
        >>> forget_reasons(CardView("c", importance=0.1), list(range(413)),
        ...                412 * 86_400_000, "trivial (importance 0.1)")
        'trivial (importance 0.1), 412 active days since, never recalled, P(forget)=1.00'
    """
    parts = [why, f"{elapsed(card, days, now_ms)} active days since"]
    if card.last_accessed is None or card.access_count == 0:
        parts.append("never recalled")
    else:
        since = max(0, (now_ms - card.last_accessed) // DAY_MS)
        parts.append(f"recalled {card.access_count}x, last {since} days ago")
    if card.reward < 0:
        parts.append(f"negative feedback {card.reward:g}")
    parts.append(f"P(forget)={forget_probability(card, days, now_ms, params):.2f}")
    return ", ".join(parts)


def eligibility(
    card: CardLike,
    *,
    summarised: Collection[str] = (),
    central: Collection[str] = (),
    params: ForgetParams = DEFAULT_PARAMS,
) -> str | None:
    """Which of the kinds that may fade an unprotected card is, or None (it stays)."""
    if str(card.status) == "superseded":
        return "superseded"
    if card.importance < params.trivial:
        return f"trivial (importance {card.importance:g})"
    if str(card.id) in summarised and str(card.id) not in central:
        return "summarised by an abstraction"
    return None


def select_forgettable(
    cards: Iterable[CardLike],
    now_ms: int,
    *,
    threshold: float = 0.8,
    capacity: int | None = None,
    params: ForgetParams = DEFAULT_PARAMS,
    days: Sequence[int] | None = None,
    summarised: Collection[str] = (),
    central: Collection[str] = (),
    cited: Collection[str] = (),
) -> list[ForgetDecision]:
    """Cards to soft-forget, most faded first (see the module docstring).

    ``cards``: the user's active and superseded cards. ``days``: the user's active days
    (``active_days``; default: the days of these cards). ``summarised``: ids of cards an
    abstraction summarises, ``central``: its most central ones (kept). ``cited``: ids
    cited by open tasks. A card goes when it is unprotected, of a kind that may go, and
    P(forget) >= ``threshold``; with ``capacity``, the least retained unprotected active
    cards go too until at most ``capacity`` active cards remain.

    Examples:
        >>> from graphmem.algorithms.cardview import CardView
        >>> day = 86_400_000
        >>> cards = [CardView("lyon", "I live in Lyon", status="superseded", valid_to=day),
        ...          CardView("mtl", "I moved to Montreal", timestamp=day),
        ...          CardView("chat", "We chatted", importance=0.1)]
        >>> busy = list(range(500))
        >>> [d.card_id for d in select_forgettable(cards, 500 * day, days=busy)]
        ['chat', 'lyon']
        >>> select_forgettable(cards, 500 * day, days=[0, 1])  # a dormant user
        []
    """
    cards = list(cards)
    active = [c for c in cards if str(c.status) == "active"]
    pool = [c for c in cards if str(c.status) in ("active", "superseded")]
    days = active_days(c.timestamp for c in cards) if days is None else days
    decisions: list[ForgetDecision] = []
    kept: list[tuple[float, CardLike]] = []  # unprotected active cards that stay
    scored = sorted(
        ((forget_probability(c, days, now_ms, params), c) for c in pool),
        key=lambda pc: (-pc[0], pc[1].timestamp, str(pc[1].id)),
    )
    for probability, card in scored:
        if protection(card, cited=cited) is not None:
            continue
        kind = eligibility(card, summarised=summarised, central=central, params=params)
        if kind is not None and probability >= threshold:
            decisions.append(
                ForgetDecision(
                    str(card.id), probability, forget_reasons(card, days, now_ms, kind, params)
                )
            )
        elif str(card.status) == "active":
            kept.append((probability, card))
    if capacity is not None:
        gone = {d.card_id for d in decisions}
        excess = sum(1 for c in active if str(c.id) not in gone) - max(0, capacity)
        for probability, card in kept:  # already least retained first
            if excess <= 0:
                break
            reason = (
                f"over capacity ({len(active)} active > {capacity}), lowest retention "
                f"{1 - probability:.2f}: "
                + forget_reasons(card, days, now_ms, "unprotected", params)
            )
            decisions.append(ForgetDecision(str(card.id), probability, reason))
            excess -= 1
    return decisions


__all__ = [
    "DEFAULT_PARAMS",
    "KEPT_CATEGORIES",
    "ForgetDecision",
    "ForgetParams",
    "active_days",
    "elapsed",
    "eligibility",
    "forget_probability",
    "forget_reasons",
    "protection",
    "retention",
    "select_forgettable",
    "stability_days",
]
