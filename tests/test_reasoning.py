"""Reasoning traces on a real store: steps and tool calls in order, statistics per tool,
similar traces, and the tasks traces work on."""

from __future__ import annotations

import pytest

from graphmem import Memory, NotFoundError, ValidationError
from graphmem.reasoning import ToolStatus


def test_a_trace_with_steps_and_tool_calls(memory: Memory, user: str) -> None:
    reasoning = memory.reasoning
    trace = reasoning.start(user, "Find Alice's role at Acme", session_id="chat-1")
    assert (trace.task, trace.session_id, trace.success, trace.completed_at) == (
        "Find Alice's role at Acme",
        "chat-1",
        None,
        None,
    )
    search = reasoning.step(user, trace.id, thought="Look her up", action="search_entities")
    answer = reasoning.step(user, trace.id, observation="She works at Acme")
    assert (search.number, answer.number) == (1, 2)
    ok = reasoning.tool_call(
        user,
        search.id,
        "search_entities",
        {"query": "Alice", "limit": 5},
        result={"entities": [{"name": "Alice", "type": "PERSON"}]},
        duration_ms=150,
    )
    failed = reasoning.tool_call(
        user,
        search.id,
        "search_entities",
        {"query": ""},
        status="failure",
        error="empty query",
        error_type="ValueError",
    )
    done = reasoning.complete(user, trace.id, outcome="Alice is an engineer", success=True)
    assert (done.outcome, done.success) == ("Alice is an engineer", True)
    assert done.completed_at is not None
    assert done.completed_at >= done.started_at
    assert [s.number for s in done.steps] == [1, 2]
    assert [c.id for c in done.steps[0].tool_calls] == [ok.id, failed.id]
    assert done.steps[0].tool_calls[0].result == {"entities": [{"name": "Alice", "type": "PERSON"}]}
    assert done.steps[0].tool_calls[1].status is ToolStatus.FAILURE
    assert reasoning.get(user, trace.id) == done


def test_tool_stats_count_every_outcome(memory: Memory, user: str) -> None:
    trace = memory.reasoning.start(user, "use tools")
    step = memory.reasoning.step(user, trace.id, action="tools")
    for status, ms in [("success", 100), ("success", 200), ("failure", None), ("timeout", 50)]:
        memory.reasoning.tool_call(user, step.id, "search", {}, status=status, duration_ms=ms)
    memory.reasoning.tool_call(user, step.id, "fetch", {}, status="pending")
    [search] = memory.reasoning.tool_stats(user, "search")
    assert (search.calls, search.succeeded, search.failed) == (4, 2, 2)
    assert search.success_rate == 0.5
    assert search.avg_duration_ms == pytest.approx(350 / 3)
    assert [s.tool for s in memory.reasoning.tool_stats(user)] == ["search", "fetch"]
    assert memory.reasoning.tool_stats("nobody-else") == []


def test_traces_by_session_task_and_similarity(memory: Memory, user: str) -> None:
    task = memory.tasks.create(user, "Book the Kyoto trip")
    booked = memory.reasoning.start(user, "Book flights to Kyoto", session_id="a", task_id=task.id)
    memory.reasoning.complete(user, booked.id, outcome="booked", success=True)
    failed = memory.reasoning.start(user, "Book a hotel in Kyoto", session_id="b")
    memory.reasoning.complete(user, failed.id, outcome="sold out", success=False)
    memory.reasoning.start(user, "Summarise the quarterly report", session_id="a")
    assert [t.task for t in memory.reasoning.list(user, session_id="b")] == [
        "Book a hotel in Kyoto"
    ]
    assert [t.id for t in memory.reasoning.list(user, task_id=task.id)] == [booked.id]
    assert len(memory.reasoning.list(user, limit=2)) == 2
    similar = memory.reasoning.similar(user, "flights to Japan")
    assert [h.trace.id for h in similar] == [booked.id]  # successful ones only
    every = memory.reasoning.similar(user, "hotel in Kyoto", success_only=False, k=2)
    assert every[0].trace.id == failed.id
    assert memory.reasoning.similar("nobody-else", "anything") == []
    with pytest.raises(NotFoundError):
        memory.reasoning.start(user, "x", task_id="no-such-task")


def test_unknown_ids_and_bad_input(memory: Memory, user: str) -> None:
    with pytest.raises(NotFoundError):
        memory.reasoning.get(user, "00000000-0000-0000-0000-000000000000")
    with pytest.raises(NotFoundError):
        memory.reasoning.step(user, "no-such-trace", thought="x")
    trace = memory.reasoning.start(user, "t")
    with pytest.raises(NotFoundError):
        memory.reasoning.get("another-user", trace.id)  # tenants never see each other
    step = memory.reasoning.step(user, trace.id, thought="x")
    with pytest.raises(ValidationError) as error:
        memory.reasoning.tool_call(user, step.id, "t", {}, status="exploded")
    assert error.value.field == "status"
    with pytest.raises(ValidationError):
        memory.reasoning.tool_call(user, step.id, "t", {"x": float("nan")})
