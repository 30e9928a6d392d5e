"""LangChain: the retriever meets langchain-core's standard retriever expectations (the
checks of ``langchain_tests.integration_tests.RetrieversIntegrationTests``, written out
here so the suite needs no extra pytest plugins), and the tools work for an agent driven
by a fake chat model."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from graphmem import Memory
from graphmem.integrations.langchain import GraphmemRetriever, memory_tools

FACTS = [
    ("Alice is allergic to peanuts", "Alice", "sister"),
    ("Alice loves sailing", "Alice", "sister"),
    ("Tom plays the cello", "Tom", "brother"),
    ("I prefer window seats", "me", None),
]


@pytest.fixture
def stocked(memory: Memory, user: str) -> tuple[Memory, str]:
    memory.remember_many(
        [
            {
                "user_id": user,
                "fact": fact,
                "person": person,
                "relationship": rel,
                "timestamp": "2024-03-20T10:15:00Z",
                "source": {"session_id": "chat-1", "turn": i},
            }
            for i, (fact, person, rel) in enumerate(FACTS)
        ]
    )
    return memory, user


def test_k_constructor_param(stocked):
    memory, user = stocked
    for k in (3, 1):
        docs = GraphmemRetriever(memory=memory, user_id=user, k=k).invoke("Alice")
        assert len(docs) == k
        assert all(isinstance(d, Document) for d in docs)


def test_invoke_with_k_kwarg(stocked):
    memory, user = stocked
    retriever = GraphmemRetriever(memory=memory, user_id=user)
    assert len(retriever.invoke("Alice", None, k=1)) == 1
    assert len(retriever.invoke("Alice", None, k=3)) == 3


def test_invoke_batch_and_ainvoke_return_documents(stocked):
    memory, user = stocked
    retriever = GraphmemRetriever(memory=memory, user_id=user, k=2)
    one = retriever.invoke("sister")
    many = retriever.batch(["sister", "cello"])
    later = asyncio.run(retriever.ainvoke("sister"))
    for docs in (one, *many, later):
        assert isinstance(docs, list)
        assert all(isinstance(d, Document) for d in docs)
    assert many[1][0].page_content == "Tom plays the cello"
    assert [d.id for d in later] == [d.id for d in one]


def test_documents_carry_the_card_context(stocked):
    memory, user = stocked
    (doc,) = GraphmemRetriever(memory=memory, user_id=user, k=1).invoke(
        "what is my sister allergic to?"
    )
    assert doc.page_content == "Alice is allergic to peanuts"
    meta = doc.metadata
    assert (meta["person"], meta["relationship"], meta["timestamp"]) == (
        "Alice",
        "sister",
        "2024-03-20T10:15:00Z",
    )
    assert (meta["source_session"], meta["source_turn"], meta["source_document"]) == (
        "chat-1",
        0,
        None,
    )
    assert meta["id"] == doc.id
    assert "graph" in meta["found_by"]
    assert meta["score"] > 0


def test_filters_restrict_what_is_retrieved(stocked):
    memory, user = stocked
    docs = GraphmemRetriever(memory=memory, user_id=user, k=5, person="Tom").invoke("music")
    assert [d.page_content for d in docs] == ["Tom plays the cello"]


def test_a_fake_chat_model_drives_the_memory_tools(memory: Memory, user: str):
    tools = {t.name: t for t in memory_tools(memory, user)}
    assert list(tools) == [
        "remember",
        "recall",
        "context",
        "provenance",
        "forget",
        "feedback",
        "history",
        "profile",
        "task_add",
        "task_update",
        "task_ready",
        "task_blocked",
        "session_append",
        "session_search",
        "session_compact",
        "strategy_lookup",
        "strategy_record",
    ]
    assert "user_id" not in tools["remember"].tool_call_schema.model_json_schema()["properties"]
    model = GenericFakeChatModel(
        messages=iter(
            [
                AIMessage(
                    "",
                    tool_calls=[
                        {
                            "name": "remember",
                            "id": "call-1",
                            "args": {
                                "fact": "Bob is vegetarian",
                                "person": "Bob",
                                "relationship": "friend",
                            },
                        }
                    ],
                ),
                AIMessage(
                    "",
                    tool_calls=[
                        {
                            "name": "recall",
                            "id": "call-2",
                            "args": {"query": "what does my friend eat?", "k": 1},
                        }
                    ],
                ),
                AIMessage("Bob is vegetarian, so a veggie menu."),
            ]
        )
    )
    messages = [HumanMessage("Remember that my friend Bob is vegetarian, then plan dinner.")]
    while True:
        reply = model.invoke(messages)
        messages.append(reply)
        if not reply.tool_calls:
            break
        messages += [tools[call["name"]].invoke(call) for call in reply.tool_calls]
    results = [m for m in messages if isinstance(m, ToolMessage)]
    assert [m.tool_call_id for m in results] == ["call-1", "call-2"]
    stored = memory.recall(user, "Bob", k=1)[0].card
    assert (stored.fact, stored.person, stored.relationship) == (
        "Bob is vegetarian",
        "Bob",
        "friend",
    )
    assert stored.id in results[1].content
    assert "vegetarian" in results[1].content
    assert messages[-1].content == "Bob is vegetarian, so a veggie menu."


def test_tool_errors_reach_the_agent_as_text(memory: Memory, user: str):
    tools = {t.name: t for t in memory_tools(memory, user, tasks=False)}
    assert "task_add" not in tools
    answer = tools["provenance"].invoke({"card_id": "nope"})
    assert answer == f"NotFoundError: no card 'nope' for user {user!r}"
