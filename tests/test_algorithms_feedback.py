"""Feedback: bounded moving averages of reward and confidence, revision on bad news."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.algorithms.feedback import FeedbackUpdate, apply_feedback, signal_score
from graphmem.errors import ValidationError


def test_thumbs_up_raises_reward_and_confidence() -> None:
    assert apply_feedback(0.0, 0.8, "up") == FeedbackUpdate(
        0.3, 0.82, False, "feedback up: reward 0 -> 0.3, confidence 0.8 -> 0.82"
    )


def test_thumbs_down_lowers_both_and_flags_revision() -> None:
    assert apply_feedback(0.5, 0.8, "DOWN") == FeedbackUpdate(
        0.05,
        0.72,
        True,
        "feedback DOWN: reward 0.5 -> 0.05, confidence 0.8 -> 0.72; flagged for revision",
    )


@pytest.mark.parametrize(
    ("rating", "reward", "confidence", "revise"),
    [
        (1, -0.3, 0.72, True),
        (2, -0.15, 0.76, True),
        (3, 0.0, 0.8, False),
        (4, 0.15, 0.81, False),
        (5, 0.3, 0.82, False),
    ],
)
def test_ratings_one_to_five_with_three_neutral(
    rating: int, reward: float, confidence: float, revise: bool
) -> None:
    update = apply_feedback(0.0, 0.8, rating)
    assert (update.reward, update.confidence, update.needs_revision) == (reward, confidence, revise)


def test_neutral_rating_lets_reward_decay_towards_zero() -> None:
    assert apply_feedback(0.5, 0.8, 3).reward == 0.35


def test_repeated_praise_converges_below_the_bounds() -> None:
    reward, confidence = 0.0, 0.5
    for _ in range(50):
        update = apply_feedback(reward, confidence, "up")
        reward, confidence = update.reward, update.confidence
    assert 0.999 < reward <= 1.0
    assert 0.99 < confidence <= 1.0


@pytest.mark.parametrize("signal", ["meh", "", 0, 6, 2.5, True, None])
def test_invalid_signals_name_the_field(signal: object) -> None:
    with pytest.raises(ValidationError, match="invalid signal") as info:
        apply_feedback(0.0, 0.5, signal)  # type: ignore[arg-type]
    assert info.value.field == "signal"


@pytest.mark.parametrize(
    ("reward", "confidence", "field"),
    [(1.5, 0.5, "reward"), (0.0, -0.1, "confidence"), (float("nan"), 0.5, "reward")],
)
def test_out_of_range_state_is_rejected(reward: float, confidence: float, field: str) -> None:
    with pytest.raises(ValidationError) as info:
        apply_feedback(reward, confidence, "up")
    assert info.value.field == field


@given(
    reward=st.floats(-1, 1),
    confidence=st.floats(0, 1),
    signal=st.sampled_from(["up", "down", 1, 2, 3, 4, 5]),
)
def test_updates_stay_in_bounds(reward: float, confidence: float, signal: str | int) -> None:
    update = apply_feedback(reward, confidence, signal)
    assert -1.0 <= update.reward <= 1.0
    assert 0.0 <= update.confidence <= 1.0
    assert update.needs_revision == (signal_score(signal) < 0)
