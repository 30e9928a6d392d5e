"""Point-in-time recall: what memory held true at a time, as it then knew it.

Bi-temporal: a card answers ``as_of=T`` when graphmem had learnt it by T (transaction
time, ``known_at``, default T) and held it valid at T (``valid_from``/``valid_to``), in the
state it then had (``graphmem.history``). Real store, real embeddings.
"""

from __future__ import annotations

import time

import pytest

from graphmem import Memory, ValidationError
from graphmem.timeutil import now_ms

WHERE = "which city do I live in?"


def moment() -> int:
    """A time strictly between two writes (times are milliseconds)."""
    time.sleep(0.005)
    t = now_ms()
    time.sleep(0.005)
    return t


def cities(memory: Memory, user: str, **at) -> list[str]:
    hits = memory.recall(user, WHERE, k=5, category="life", **at)
    return [h.card.fact for h in hits]


@pytest.fixture
def moved(memory: Memory, user: str) -> dict[str, int]:
    """Paris learnt, then the move to Berlin learnt and consolidated."""
    life = {"user_id": user, "category": "life"}
    memory.remember({**life, "fact": "I live in Paris", "timestamp": "2020-01-10"})
    before = moment()
    memory.remember({**life, "fact": "I moved to Berlin", "timestamp": "2024-05-01"})
    learnt = moment()
    memory.consolidate(user, ("conflicts",))
    after = moment()
    return {"before": before, "learnt": learnt, "after": after}


def test_before_the_move_paris_after_it_berlin(memory: Memory, user: str, moved):
    assert cities(memory, user, as_of=moved["before"]) == ["I live in Paris"]
    assert cities(memory, user, as_of=moved["after"]) == ["I moved to Berlin"]
    assert cities(memory, user) == ["I moved to Berlin"]


def test_the_move_replaced_paris_as_soon_as_it_was_learnt(memory: Memory, user: str, moved):
    # The write that learnt of the move superseded Paris (graphmem/write.py): memory never
    # held both as true, not even before consolidation.
    assert cities(memory, user, as_of=moved["learnt"]) == ["I moved to Berlin"]


def test_valid_time_and_known_time_apart(memory: Memory, user: str, moved):
    # Where did I live in 2022, by what memory knows now: Paris (valid 2020 - 2024-05).
    assert cities(memory, user, as_of="2022-06-01", known_at=moved["after"]) == ["I live in Paris"]
    # ... and in 2022 itself graphmem had learnt nothing yet.
    assert cities(memory, user, as_of="2022-06-01") == []


def test_a_card_reads_as_it_was_then(memory: Memory, user: str):
    work = {"user_id": user, "category": "work", "timestamp": "2021-03-01"}
    job = memory.remember({**work, "fact": "I work at Initech"})
    then = moment()
    memory.remember(job.model_copy(update={"fact": "I work at Initech as a lead engineer"}))
    memory.forget(user, job.id)
    hits = memory.recall(user, "where do I work?", k=3, as_of=then)
    assert [(h.card.fact, h.card.status.value, h.card.version) for h in hits] == [
        ("I work at Initech", "active", 1)
    ]
    assert memory.recall(user, "where do I work?", k=3) == []  # forgotten now


def test_point_in_time_options_are_checked(memory: Memory, user: str):
    with pytest.raises(ValidationError, match="known_at needs as_of"):
        memory.recall(user, WHERE, known_at="2024-01-01")
    with pytest.raises(ValidationError) as both:
        memory.recall(user, WHERE, as_of="2024-01-01", include_superseded=True)
    assert both.value.field == "as_of"
    with pytest.raises(ValidationError) as bad:
        memory.recall(user, WHERE, as_of="last tuesday")
    assert bad.value.field == "as_of"


def test_as_of_over_http(memory: Memory, user: str, moved):
    from fastapi.testclient import TestClient

    from graphmem.service import create_app

    with TestClient(create_app(memory)) as client:
        body = {"query": WHERE, "k": 3, "category": "life", "as_of": moved["before"]}
        hits = client.post(f"/v1/users/{user}/recall", json=body).json()
        assert [h["card"]["fact"] for h in hits] == ["I live in Paris"]
