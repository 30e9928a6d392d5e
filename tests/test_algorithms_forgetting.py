"""Forgetting: what is protected, what may fade, and the clock of the user's own activity."""

from __future__ import annotations

import math

import pytest

from graphmem.algorithms.cardview import DAY_MS, CardView
from graphmem.algorithms.forgetting import (
    ForgetDecision,
    ForgetParams,
    active_days,
    elapsed,
    forget_probability,
    forget_reasons,
    protection,
    retention,
    select_forgettable,
    stability_days,
)
from graphmem.models import Card
from graphmem.timeutil import to_ms

NOW = to_ms("2025-01-01T00:00:00Z")
#: A user who said something every day of the last 1000 days.
BUSY = active_days(NOW - d * DAY_MS for d in range(1000))


def aged(cid: str, days: int, fact: str | None = None, **extra: object) -> CardView:
    return CardView(cid, fact or f"fact {cid}", timestamp=NOW - days * DAY_MS, **extra)  # type: ignore[arg-type]


def test_stability_follows_the_documented_formula() -> None:
    card = aged("c", 0, importance=0.5, emotion=0.4, access_count=3, reward=-0.2)
    expected = 60 * math.exp(2.0 * 0.5 + 1.0 * 0.4 + 0.7 * math.log1p(3) - 0.2)
    assert stability_days(card) == pytest.approx(expected)


def test_time_is_the_users_activity_not_the_calendar() -> None:
    card = aged("c", 412, importance=0.1)
    assert elapsed(card, BUSY, NOW) == 412
    assert forget_probability(card, BUSY, NOW) == pytest.approx(0.996382, abs=1e-6)
    three_sessions = active_days([NOW - 412 * DAY_MS, NOW - 300 * DAY_MS, NOW - 5 * DAY_MS])
    assert elapsed(card, three_sessions, NOW) == 2
    assert forget_probability(card, three_sessions, NOW) == pytest.approx(0.0269, abs=1e-4)


def test_a_dormant_user_loses_nothing_however_long_away() -> None:
    cards = [aged("chat", 30, "We chatted about nothing", importance=0.1)]
    last_seen = active_days(c.timestamp for c in cards)
    years_later = NOW + 10 * 365 * DAY_MS
    assert retention(cards[0], last_seen, years_later) == 1.0
    assert select_forgettable(cards, years_later, days=last_seen) == []


def test_a_trivial_card_fades_with_activity_and_says_why() -> None:
    card = aged("old", 412, "Nice weather", importance=0.1)
    assert select_forgettable([card], NOW, days=BUSY) == [
        ForgetDecision(
            "old",
            forget_probability(card, BUSY, NOW),
            "trivial (importance 0.1), 412 active days since, never recalled, P(forget)=1.00",
        )
    ]


def test_recalling_a_card_resets_its_clock() -> None:
    card = aged("kept", 412, importance=0.1, access_count=3, last_accessed=NOW - 2 * DAY_MS)
    assert forget_probability(card, BUSY, NOW) == pytest.approx(0.010288, abs=1e-6)
    assert forget_reasons(card, BUSY, NOW, "trivial") == (
        "trivial, 2 active days since, recalled 3x, last 2 days ago, P(forget)=0.01"
    )
    assert select_forgettable([card], NOW, days=BUSY) == []


@pytest.mark.parametrize(
    ("card", "why"),
    [
        (aged("a", 900, "I moved to Montreal", importance=0.1), "current value of location"),
        (
            aged("b", 900, "Tom is no longer my manager", person="Tom", importance=0.1),
            "relationship",
        ),
        (aged("c", 900, "Our neighbour Tom is afraid of dogs", importance=0.1), "relationship"),
        (aged("d", 900, "Keep answers short", importance=0.1, category="preference"), "preference"),
        (aged("e", 900, "I prefer bullet points", importance=0.1), "preference"),
        (aged("f", 900, "I can't eat gluten", importance=0.1, category="constraint"), "constraint"),
        (aged("g", 900, "I'm Maya", importance=0.1), "current value of name"),
        (aged("h", 900, "Went for a walk", importance=0.1, reward=0.3), "positive feedback"),
    ],
)
def test_protected_cards_are_never_forgotten(card: CardView, why: str) -> None:
    assert protection(card) == why
    assert select_forgettable([card], NOW, days=BUSY) == []
    assert select_forgettable([card], NOW, days=BUSY, capacity=0) == []


def test_a_card_cited_by_an_open_task_stays() -> None:
    card = aged("t", 900, "Went for a walk", importance=0.1)
    assert protection(card, cited={"t"}) == "cited by an open task"
    assert select_forgettable([card], NOW, days=BUSY, cited={"t"}) == []


def test_a_superseded_card_fades_from_when_it_was_replaced() -> None:
    lyon = aged("lyon", 900, "I live in Lyon", status="superseded", valid_to=NOW - 400 * DAY_MS)
    recent = aged("paris", 900, "I live in Paris", status="superseded", valid_to=NOW - DAY_MS)
    found = select_forgettable([lyon, recent], NOW, days=BUSY)
    assert [d.card_id for d in found] == ["lyon"]
    assert found[0].reason.startswith("superseded, 400 active days since")


def test_summarised_cards_may_fade_but_not_the_abstractions_central_ones() -> None:
    cards = [aged(c, 600, f"Went hiking on trail {c}") for c in "abc"]
    found = select_forgettable(cards, NOW, days=BUSY, summarised={"a", "b", "c"}, central={"a"})
    assert sorted(d.card_id for d in found) == ["b", "c"]
    assert found[0].reason.startswith("summarised by an abstraction, 600 active days since")
    assert select_forgettable(cards, NOW, days=BUSY) == []  # not summarised: stays


def test_threshold_is_inclusive_and_configurable() -> None:
    cards = [aged("c", 150, importance=0.25), aged("d", 150, importance=0.05)]
    assert [round(forget_probability(c, BUSY, NOW), 4) for c in cards] == [0.7805, 0.8959]
    assert [d.card_id for d in select_forgettable(cards, NOW, days=BUSY)] == ["d"]
    assert [d.card_id for d in select_forgettable(cards, NOW, days=BUSY, threshold=0.7)] == [
        "d",
        "c",
    ]


def test_capacity_evicts_the_least_retained_unprotected_cards() -> None:
    cards = [
        aged("a", 10),
        aged("b", 40),
        aged("c", 20),
        aged("d", 30),
        aged("home", 50, "I live in Lisbon"),
    ]
    decisions = select_forgettable(cards, NOW, days=BUSY, capacity=3)
    assert [d.card_id for d in decisions] == ["b", "d"]
    assert [round(d.probability, 4) for d in decisions] == [0.2175, 0.168]
    assert decisions[0].reason.startswith("over capacity (5 active > 3), lowest retention 0.78:")


def test_capacity_counts_what_the_threshold_already_removed() -> None:
    cards = [aged("ancient", 900, importance=0.1), aged("a", 10), aged("b", 40)]
    found = select_forgettable(cards, NOW, days=BUSY, capacity=2)
    assert [d.card_id for d in found] == ["ancient"]
    found = select_forgettable(cards, NOW, days=BUSY, capacity=1)
    assert [d.card_id for d in found] == ["ancient", "b"]


def test_custom_params_change_the_curve() -> None:
    slow = ForgetParams(base_days=6000.0)
    card = aged("old", 412, importance=0.1)
    assert forget_probability(card, BUSY, NOW, slow) == pytest.approx(
        1 - math.exp(-412 / (6000 * math.exp(0.2)))
    )
    assert select_forgettable([card], NOW, days=BUSY, params=slow) == []


def test_works_on_card_models() -> None:
    card = Card(
        user_id="u", fact="Alice mentioned a café", importance=0.1, timestamp=NOW - 412 * DAY_MS
    )
    [decision] = select_forgettable([card], NOW, days=BUSY)
    assert decision.card_id == card.id
    assert decision.reason.startswith("trivial (importance 0.1), 412 active days since")
