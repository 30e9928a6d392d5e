"""Strategy memory on a real store: a fix is learnt from a corrected call, ranked for the
next failure, applied by the resilient wrapper, and moved by feedback."""

from __future__ import annotations

import pytest

from graphmem import Memory, ValidationError
from graphmem.strategies import ResilientTool


def search(query: str, k: int = 3) -> str:
    if not query.strip():
        raise ValueError("query must not be empty")
    return f"{k} results for {query}"


def test_a_fix_is_a_strategy_card(memory: Memory, user: str) -> None:
    strategy = memory.strategies.record_fix(
        user,
        "search",
        "ValueError",
        {"query": ""},
        {"query": "news"},
        error="query must not be empty",
    )
    card = memory.get(user, strategy.id)
    assert (card.category.value, card.tags) == ("strategy", ["error:valueerror", "tool:search"])
    assert card.fact == 'When search fails with ValueError, retry with query: "" -> "news"'
    assert "Original arguments:" in card.backstory
    assert '{"query": "news"}' in card.backstory
    assert (strategy.original, strategy.fixed, strategy.uses) == (
        {"query": ""},
        {"query": "news"},
        0,
    )
    again = memory.strategies.record_fix(
        user,
        "search",
        "ValueError",
        {"query": ""},
        {"query": "news"},
        error="query must not be empty",
    )
    assert again.id == strategy.id  # the same fix is one strategy
    with pytest.raises(ValidationError):
        memory.strategies.record_fix(user, "search", "ValueError", {"q": 1}, {"q": 1}, error="x")


def test_lookup_scores_error_type_tool_and_message(memory: Memory, user: str) -> None:
    s = memory.strategies
    exact = s.record_fix(
        user, "search", "ValueError", {"q": ""}, {"q": "a"}, error="query must not be empty"
    )
    other_tool = s.record_fix(
        user, "fetch", "ValueError", {"u": ""}, {"u": "x"}, error="url must not be empty"
    )
    other_error = s.record_fix(
        user, "search", "TimeoutError", {"k": 50}, {"k": 5}, error="timed out after 30 s"
    )
    s.record_fix(
        user, "fetch", "KeyError", {"a": 1}, {"a": 2}, error="no such key"
    )  # matches nothing
    found = s.lookup(user, "search", "ValueError", "the query must not be empty")
    assert [m.strategy.id for m in found] == [exact.id, other_tool.id, other_error.id]
    # 0.5 for the error type + 0.3 for the tool + 0.2 x the cosine of the messages.
    asked, *stored = memory.embedder.embed(
        [
            "the query must not be empty",
            "query must not be empty",
            "url must not be empty",
            "timed out after 30 s",
        ]
    )
    cosine = [max(0.0, min(1.0, float(v @ asked))) for v in stored]
    assert [m.score for m in found] == pytest.approx(
        [0.5 + 0.3 + 0.2 * cosine[0], 0.5 + 0.2 * cosine[1], 0.3 + 0.2 * cosine[2]], abs=1e-3
    )
    assert s.lookup("nobody-else", "search", "ValueError") == []


def test_ties_go_to_confidence_then_use(memory: Memory, user: str) -> None:
    s = memory.strategies
    a = s.record_fix(user, "search", "ValueError", {"q": ""}, {"q": "a"}, error="empty")
    b = s.record_fix(user, "search", "ValueError", {"q": ""}, {"q": "b"}, error="empty")
    s.feedback(user, b.id, worked=True)
    assert [m.strategy.id for m in s.lookup(user, "search", "ValueError", "empty")] == [b.id, a.id]
    worse = s.feedback(user, a.id, worked=False)
    assert (worse.uses, worse.successes) == (1, 0)
    assert worse.reward < 0 < s.get(user, b.id).reward
    assert worse.confidence < b.confidence + 0.2


def test_the_wrapper_learns_a_fix_and_applies_it_next_time(memory: Memory, user: str) -> None:
    calls: list[dict[str, object]] = []

    def tool(**arguments: object) -> str:
        calls.append(arguments)
        return search(**arguments)  # type: ignore[arg-type]

    trace = memory.reasoning.start(user, "answer with a search")
    first = ResilientTool(memory, user, tool, name="search", trace_id=trace.id)
    with pytest.raises(ValueError, match="must not be empty"):
        first(query="")
    assert first(query="peanut-free restaurants") == "3 results for peanut-free restaurants"
    [learnt] = memory.strategies.lookup(user, "search", "ValueError", "query must not be empty")
    assert learnt.strategy.fixed == {"query": "peanut-free restaurants"}
    # A new run: the same mistake is fixed without anyone being asked.
    calls.clear()
    second = ResilientTool(memory, user, tool, name="search")
    assert second(query="", k=5) == "5 results for peanut-free restaurants"
    assert calls == [{"query": "", "k": 5}, {"query": "peanut-free restaurants", "k": 5}]
    used = memory.strategies.get(user, learnt.strategy.id)
    assert (used.uses, used.successes) == (1, 1)
    assert used.reward > 0
    assert used.confidence > learnt.strategy.confidence
    steps = memory.reasoning.get(user, trace.id).steps
    assert [c.status.value for s in steps for c in s.tool_calls] == ["error", "success"]
    # A failure no strategy fits is raised as it was.
    with pytest.raises(TypeError):
        second(query="x", unknown=1)


def test_the_agent_tools_record_search_and_look_up(memory: Memory, user: str) -> None:
    """The tools MCP serves and memory_tools hands to LangChain, called as a model would."""
    from graphmem.integrations.tools import UserTools

    tools = UserTools(memory, user)
    made = tools.session_append("chat", "My sister Alice is allergic to peanuts.")
    assert (made["session_id"], made["turn"]) == ("chat", 0)
    [hit] = tools.session_search("peanut allergy", k=1)
    assert (hit["text"], hit["speaker"]) == ("My sister Alice is allergic to peanuts.", "user")
    assert tools.session_compact("chat", 1000)["folded"] == []
    recorded = tools.strategy_record("search", "ValueError", {"q": ""}, {"q": "x"}, error="empty")
    [found] = tools.strategy_lookup("search", "ValueError", "empty query")
    assert (found["id"], found["fixed"]) == (recorded["id"], {"q": "x"})


def test_arguments_with_nul_are_refused_before_anything_is_written(
    memory: Memory, user: str
) -> None:
    with pytest.raises(ValidationError) as error:
        memory.strategies.record_fix(user, "search", "ValueError", {"q": "a\x00"}, {"q": "b"})
    assert error.value.field == "original"
    trace = memory.reasoning.start(user, "t")
    step = memory.reasoning.step(user, trace.id, action="a")
    with pytest.raises(ValidationError):
        memory.reasoning.tool_call(user, step.id, "search", {"\x00": 1})
    assert memory.count(user) == {}
    assert memory.reasoning.get(user, trace.id).steps[0].tool_calls == []
