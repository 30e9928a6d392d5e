"""LangChain and LangGraph in the loop: a chat history kept as a session, memory around
an agent, and a tool that learns fixes -- with fake chat models, real everything else."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from langchain_core.language_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import StructuredTool
from pydantic import Field

from graphmem import Card, Memory
from graphmem.integrations.langchain import (
    GraphmemChatMessageHistory,
    resilient_tool,
    with_memory,
)


class ScriptedModel(GenericFakeChatModel):
    """A fake chat model that answers from a script and accepts tools (LangGraph binds
    them); ``prompts`` keeps what it was asked, so a test can count the calls."""

    prompts: list[Any] = Field(default_factory=list)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedModel:
        return self

    def _generate(self, messages: list[Any], *args: Any, **kwargs: Any) -> Any:
        self.prompts.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def scripted(*replies: AIMessage) -> ScriptedModel:
    return ScriptedModel(messages=iter(replies))


def search_call(query: str, call_id: str) -> AIMessage:
    return AIMessage(
        content="", tool_calls=[{"name": "search", "args": {"query": query}, "id": call_id}]
    )


def search(query: str) -> str:
    """Search restaurants."""
    if not query.strip():
        raise ValueError("query must not be empty")
    return f"results for {query}: Nara (no peanuts)"


def test_chat_history_is_a_session(memory: Memory, user: str) -> None:
    history = GraphmemChatMessageHistory(memory, user, "chat")
    call = search_call("thai food", "c1")
    history.add_messages(
        [
            SystemMessage("Be brief."),
            HumanMessage("Find a thai place"),
            call,
            ToolMessage("results for thai food", tool_call_id="c1"),
            AIMessage("Try Nara."),
        ]
    )
    messages = history.messages
    assert [type(m).__name__ for m in messages] == [
        "SystemMessage",
        "HumanMessage",
        "AIMessage",
        "ToolMessage",
        "AIMessage",
    ]
    assert messages[2].tool_calls == call.tool_calls
    assert messages[3].tool_call_id == "c1"
    assert [t.role for t in memory.sessions.turns(user, "chat")] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
    ]
    history.clear()
    assert history.messages == []


def test_memory_around_a_chat_model_adds_context_and_records_turns(
    memory: Memory, user: str
) -> None:
    memory.remember(
        Card(
            user_id=user, fact="Alice is allergic to peanuts", person="Alice", relationship="sister"
        )
    )
    model = scripted(AIMessage("Nara has no peanuts."), AIMessage("You're welcome."))
    chat = with_memory(model, memory, user, "dinner")
    assert (
        chat.invoke("Where should I take my sister for dinner?").content == "Nara has no peanuts."
    )
    first_prompt = model.prompts[0]
    assert isinstance(first_prompt[0], SystemMessage)
    assert "Alice is allergic to peanuts" in first_prompt[0].content
    chat.invoke("Thanks!")
    second_prompt = model.prompts[1]
    assert [m.content for m in second_prompt[1:]] == [
        "Where should I take my sister for dinner?",
        "Nara has no peanuts.",
        "Thanks!",
    ]
    assert [t.text for t in memory.sessions.turns(user, "dinner")] == [
        "Where should I take my sister for dinner?",
        "Nara has no peanuts.",
        "Thanks!",
        "You're welcome.",
    ]


# LangGraph 1.x points create_react_agent at langchain.agents.create_agent (another
# package); the issue asks for create_react_agent, which works unchanged.
@pytest.mark.filterwarnings("ignore:create_react_agent has been moved")
def test_a_react_agent_fixes_a_failing_tool_the_second_time_without_asking_the_model(
    memory: Memory, user: str
) -> None:
    from langgraph.prebuilt import create_react_agent

    tool = resilient_tool(StructuredTool.from_function(search), memory, user)
    # First run: the model calls search with an empty query, reads the error, corrects
    # its call; the correction is stored as a strategy.
    first = scripted(
        search_call("", "c1"),
        search_call("peanut-free restaurants", "c2"),
        AIMessage("Nara has no peanuts."),
    )
    agent = with_memory(create_react_agent(first, [tool]), memory, user, "run-1")
    out = agent.invoke({"messages": [HumanMessage("Find a restaurant for Alice")]})
    tool_messages = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert [m.status for m in tool_messages] == ["error", "success"]
    assert "query must not be empty" in tool_messages[0].content
    assert len(first.prompts) == 3
    [learnt] = memory.strategies.lookup(user, "search", "ValueError", "query must not be empty")
    assert learnt.strategy.fixed == {"query": "peanut-free restaurants"}
    # Second run: the same mistake is fixed by the stored strategy; the model is asked
    # once for the call and once for the answer, never about the error.
    second = scripted(search_call("", "c3"), AIMessage("Nara again."))
    agent = with_memory(create_react_agent(second, [tool]), memory, user, "run-2")
    out = agent.invoke({"messages": [HumanMessage("Find a restaurant for Alice")]})
    [result] = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert (result.status, result.content) == (
        "success",
        "results for peanut-free restaurants: Nara (no peanuts)",
    )
    assert len(second.prompts) == 2
    used = memory.strategies.get(user, learnt.strategy.id)
    assert (used.uses, used.successes) == (1, 1)
    assert used.reward > 0
    assert [t.text for t in memory.sessions.turns(user, "run-2")] == [
        "Find a restaurant for Alice",
        "Nara again.",
    ]
