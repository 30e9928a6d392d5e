"""Quotas on a real store: over a limit is a clear error and nothing is written; other
users are not affected."""

from __future__ import annotations

import time

import pytest

from graphmem import Card, Memory
from graphmem.errors import QuotaExceededError


def cards(user: str, n: int, start: int = 0) -> list[Card]:
    return [
        Card(user_id=user, fact=f"fact number {i}", timestamp=1_700_000_000_000)
        for i in range(start, start + n)
    ]


def test_the_card_quota_refuses_a_whole_batch(memory: Memory, user: str) -> None:
    memory.quotas.set_limits(user, cards=5)
    memory.remember_many(cards(user, 4))
    with pytest.raises(QuotaExceededError) as error:
        memory.remember_many(cards(user, 3, start=4))
    assert (error.value.limit, error.value.allowed, error.value.used, error.value.requested) == (
        "cards",
        5,
        4,
        3,
    )
    assert memory.count(user) == {"active": 4}  # nothing of the batch was written
    assert memory.remember_many(cards(user, 1, start=4)).created == 1
    assert memory.remember_many(cards(user, 5)).unchanged == 5  # re-sending adds nothing
    other = f"{user}-neighbour"
    assert memory.remember_many(cards(other, 10)).created == 10  # not their limit
    usage = memory.quotas.usage(user)
    assert (usage.cards, usage.limits.cards) == (5, 5)
    memory.quotas.set_limits(user, cards=None)
    assert memory.quotas.limits(user).cards is None


def test_the_byte_quota_covers_turns_and_traces(memory: Memory, user: str) -> None:
    memory.quotas.set_limits(user, bytes=100)
    memory.sessions.append(user, "s", "user", "x" * 60)
    with pytest.raises(QuotaExceededError) as error:
        memory.sessions.append(user, "s", "user", "é" * 30)  # 60 bytes in UTF-8
    assert (error.value.limit, error.value.used, error.value.requested) == ("bytes", 60, 60)
    with pytest.raises(QuotaExceededError):
        memory.reasoning.start(user, "t" * 50)
    assert [t.text for t in memory.sessions.turns(user, "s")] == ["x" * 60]
    assert memory.quotas.usage(user).bytes == 60


def test_the_write_rate_says_when_to_retry(memory: Memory, user: str) -> None:
    memory.quotas.set_limits(user, writes_per_minute=3)
    for i in range(3):
        memory.sessions.append(user, "s", "user", f"turn {i}")
    started = time.time()
    with pytest.raises(QuotaExceededError) as error:
        memory.remember(Card(user_id=user, fact="one too many"))
    assert error.value.limit == "writes_per_minute"
    assert 0 < error.value.retry_after <= 20.5 + (time.time() - started)  # type: ignore[operator]
    assert memory.count(user) == {}
    assert memory.quotas.usage(user).writes_available == 0


def test_defaults_apply_to_everyone_and_zero_lifts_them(memory: Memory, user: str) -> None:
    from graphmem.quotas import QuotaLimits, Quotas

    quotas = Quotas(memory._store, QuotaLimits(cards=1))
    assert quotas.limits(user).cards == 1
    quotas.set_limits(user, cards=0)
    assert quotas.limits(user).cards is None
