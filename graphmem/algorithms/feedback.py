"""Feedback: fold a thumbs up/down or a 1-5 rating into a card's reward and confidence.

The signal becomes a score ``s`` in [-1, 1]: "up" = 1, "down" = -1, a rating n in 1..5
= (n - 3) / 2 (so 3 is neutral). Then::

    reward'     = (1 - alpha) * reward + alpha * s           (EMA, stays in [-1, 1])
    confidence' = confidence + beta * s * (1 - confidence)   if s >= 0 (towards 1)
                = confidence + beta * s * confidence         if s <  0 (towards 0)

with alpha = 0.3 and beta = 0.1. Negative feedback (s < 0) sets ``needs_revision``;
other feedback leaves the stored flag as it is (the caller never clears it here).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from graphmem.errors import ValidationError

ALPHA = 0.3
BETA = 0.1


@dataclass(frozen=True)
class FeedbackUpdate:
    """New reward and confidence; ``needs_revision`` True means: flag the card."""

    reward: float
    confidence: float
    needs_revision: bool
    reason: str


def signal_score(signal: str | int) -> float:
    """Map "up"/"down" or a rating 1-5 to [-1, 1].

    Examples:
        >>> signal_score("up"), signal_score(1), signal_score(3), signal_score(4)
        (1.0, -1.0, 0.0, 0.5)
    """
    if isinstance(signal, str):
        word = signal.strip().lower()
        if word == "up":
            return 1.0
        if word == "down":
            return -1.0
        raise ValidationError(
            f"invalid signal: {signal!r}; use 'up', 'down' or 1-5", field="signal"
        )
    if isinstance(signal, bool) or not isinstance(signal, int) or not 1 <= signal <= 5:
        raise ValidationError(
            f"invalid signal: {signal!r}; use 'up', 'down' or 1-5", field="signal"
        )
    return (signal - 3) / 2


def _check_unit(name: str, value: float, low: float) -> None:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not low <= value <= 1.0
    ):
        raise ValidationError(f"invalid {name}: {value!r}; must be in [{low:g}, 1]", field=name)


def apply_feedback(
    reward: float, confidence: float, signal: str | int, *, alpha: float = ALPHA, beta: float = BETA
) -> FeedbackUpdate:
    """Fold one feedback signal into reward and confidence (formula in the module doc).

    Examples:
        >>> update = apply_feedback(0.0, 0.8, "up")
        >>> update.reward, update.confidence, update.needs_revision
        (0.3, 0.82, False)
        >>> update.reason
        'feedback up: reward 0 -> 0.3, confidence 0.8 -> 0.82'
        >>> apply_feedback(0.0, 0.8, 1).needs_revision
        True
    """
    _check_unit("reward", reward, -1.0)
    _check_unit("confidence", confidence, 0.0)
    score = signal_score(signal)
    new_reward = min(1.0, max(-1.0, (1 - alpha) * reward + alpha * score))
    room = (1 - confidence) if score >= 0 else confidence
    new_confidence = min(1.0, max(0.0, confidence + beta * score * room))
    new_reward, new_confidence = round(new_reward, 6), round(new_confidence, 6)
    reason = (
        f"feedback {signal}: reward {reward:g} -> {new_reward:g}, "
        f"confidence {confidence:g} -> {new_confidence:g}"
    )
    if score < 0:
        reason += "; flagged for revision"
    return FeedbackUpdate(new_reward, new_confidence, score < 0, reason)


__all__ = ["FeedbackUpdate", "apply_feedback", "signal_score"]
