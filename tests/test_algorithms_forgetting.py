"""Forgetting curve: exact probabilities at a fixed clock, threshold and capacity rules."""

from __future__ import annotations

import math

import pytest

from graphmem.algorithms.cardview import DAY_MS, CardView
from graphmem.algorithms.forgetting import (
    ForgetDecision,
    ForgetParams,
    forget_probability,
    forget_reasons,
    retention,
    select_forgettable,
    stability_days,
)
from graphmem.models import Card
from graphmem.timeutil import to_ms

NOW = to_ms("2025-01-01T00:00:00Z")


def aged(cid: str, days: int, **extra: object) -> CardView:
    return CardView(cid, f"fact {cid}", timestamp=NOW - days * DAY_MS, **extra)  # type: ignore[arg-type]


def test_stability_follows_the_documented_formula() -> None:
    card = aged("c", 0, importance=0.5, emotion=0.4, access_count=3, reward=-0.2)
    expected = 60 * math.exp(2.0 * 0.5 + 1.0 * 0.4 + 0.7 * math.log1p(3) - 0.2)
    assert stability_days(card) == pytest.approx(expected)


def test_old_unimportant_never_recalled_card_is_forgotten() -> None:
    card = aged("old", 412, importance=0.1)
    assert forget_probability(card, NOW) == pytest.approx(0.996382, abs=1e-6)
    assert select_forgettable([card], NOW) == [
        ForgetDecision(
            "old",
            forget_probability(card, NOW),
            "old (412 days), low importance 0.1, never recalled, P(forget)=1.00",
        )
    ]


def test_recently_recalled_card_of_the_same_age_is_kept() -> None:
    card = aged("kept", 412, importance=0.1, access_count=3, last_accessed=NOW - 2 * DAY_MS)
    assert forget_probability(card, NOW) == pytest.approx(0.010288, abs=1e-6)
    assert forget_reasons(card, NOW) == (
        "old (412 days), low importance 0.1, recalled 3x, last 2 days ago, P(forget)=0.01"
    )
    assert select_forgettable([card], NOW) == []


def test_fresh_card_has_full_retention() -> None:
    assert retention(aged("new", 0), NOW) == 1.0
    assert forget_probability(aged("future", -5), NOW) == 0.0


def test_threshold_is_inclusive_and_configurable() -> None:
    cards = [aged("c", 200, importance=0.5), aged("d", 200, importance=0.3)]
    assert [round(forget_probability(c, NOW), 4) for c in cards] == [0.7066, 0.8395]
    assert [d.card_id for d in select_forgettable(cards, NOW)] == ["d"]
    assert [d.card_id for d in select_forgettable(cards, NOW, threshold=0.7)] == ["d", "c"]


def test_protected_importance_is_never_forgotten() -> None:
    card = aged("vital", 2000, importance=0.9)
    assert forget_probability(card, NOW) > 0.99
    assert select_forgettable([card], NOW) == []
    assert select_forgettable([card], NOW, capacity=0) == []


def test_inactive_cards_are_not_considered() -> None:
    assert select_forgettable([aged("gone", 900, importance=0.0, status="forgotten")], NOW) == []


def test_capacity_evicts_the_lowest_retention_in_order() -> None:
    cards = [
        aged("a", 10),
        aged("b", 40),
        aged("c", 20),
        aged("d", 30),
        aged("vip", 50, importance=0.95),
    ]
    decisions = select_forgettable(cards, NOW, capacity=3)
    assert [d.card_id for d in decisions] == ["b", "d"]
    assert [round(d.probability, 4) for d in decisions] == [0.2175, 0.168]
    assert decisions[0].reason.startswith("over capacity (5 active > 3), lowest retention 0.78:")


def test_capacity_counts_what_the_threshold_already_removed() -> None:
    cards = [aged("ancient", 900, importance=0.1), aged("a", 10), aged("b", 40)]
    assert [d.card_id for d in select_forgettable(cards, NOW, capacity=2)] == ["ancient"]
    assert [d.card_id for d in select_forgettable(cards, NOW, capacity=1)] == ["ancient", "b"]


def test_custom_params_change_the_curve() -> None:
    slow = ForgetParams(base_days=6000.0)
    card = aged("old", 412, importance=0.1)
    assert forget_probability(card, NOW, slow) == pytest.approx(
        1 - math.exp(-412 / (6000 * math.exp(0.2)))
    )
    assert select_forgettable([card], NOW, params=slow) == []


def test_works_on_card_models() -> None:
    card = Card(
        user_id="u", fact="Alice mentioned a café", importance=0.1, timestamp="2023-11-16T00:00:00Z"
    )
    [decision] = select_forgettable([card], NOW)
    assert decision.card_id == card.id
    assert decision.reason.startswith("old (412 days), low importance 0.1, never recalled")
