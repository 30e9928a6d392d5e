"""The MCP server: over stdio as an agent reaches it, and in process for the details."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from graphmem import Memory
from graphmem.integrations.tools import UserTools
from graphmem.mcp_server import build_server

EXPECTED_TOOLS = [
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


def call(server: Any, steps: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """Connect a client to ``server``, call the tools in order, return the results."""

    async def run() -> list[Any]:
        async with Client(server, read_timeout_seconds=120) as client:
            return [await client.call_tool(name, args) for name, args in steps]

    return asyncio.run(run())


def test_remember_then_recall_over_stdio(home: Path):
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "graphmem.mcp_server", "--home", str(home), "--user", "alice"],
    )

    async def session() -> tuple[list[str], Any, Any]:
        async with Client(params, read_timeout_seconds=120) as client:
            names = [tool.name for tool in (await client.list_tools()).tools]
            made = await client.call_tool(
                "remember",
                {
                    "fact": "Alice is allergic to peanuts",
                    "person": "Alice",
                    "relationship": "sister",
                },
            )
            found = await client.call_tool(
                "recall", {"query": "what is my sister allergic to?", "k": 1}
            )
            return names, made, found

    names, made, found = asyncio.run(session())
    assert names == EXPECTED_TOOLS
    assert not made.is_error
    assert made.structured_content["person"] == "Alice"
    hits = found.structured_content["result"]
    assert [(h["id"], h["fact"], h["relationship"]) for h in hits] == [
        (made.structured_content["id"], "Alice is allergic to peanuts", "sister")
    ]
    assert "graph" in hits[0]["found_by"]


def test_the_user_is_never_a_tool_argument(memory: Memory, user: str):
    async def schemas() -> dict[str, dict[str, Any]]:
        async with Client(build_server(memory, user)) as client:
            return {t.name: t.input_schema for t in (await client.list_tools()).tools}

    found = asyncio.run(schemas())
    assert list(found) == EXPECTED_TOOLS == list(UserTools.NAMES)
    for name, schema in found.items():
        assert "user_id" not in schema.get("properties", {}), name
    assert found["remember"]["required"] == ["fact"]
    assert found["feedback"]["properties"]["signal"]["anyOf"][0]["enum"] == ["up", "down"]


def test_tools_write_only_the_configured_user(memory: Memory, user: str):
    other = f"{user}-other"
    (made,) = call(build_server(memory, user), [("remember", {"fact": "I own a red bike"})])
    card_id = made.structured_content["id"]
    assert memory.get(user, card_id).fact == "I own a red bike"
    (stranger,) = call(build_server(memory, other), [("provenance", {"card_id": card_id})])
    assert stranger.is_error
    assert stranger.content[0].text.endswith(
        f"NotFoundError: no card {card_id!r} for user {other!r}"
    )


def test_remembering_a_fact_twice_is_one_card(memory: Memory, user: str):
    tea = {"fact": "I like green tea"}
    first, second = call(build_server(memory, user), [("remember", tea), ("remember", tea)])
    assert second.structured_content["id"] == first.structured_content["id"]
    assert memory.count(user) == {"active": 1}


def test_feedback_forget_and_context(memory: Memory, user: str):
    server = build_server(memory, user)
    (made,) = call(
        server, [("remember", {"fact": "I prefer window seats", "category": "preference"})]
    )
    card_id = made.structured_content["id"]
    liked, block, forgot, bad = call(
        server,
        [
            ("feedback", {"card_id": card_id, "signal": "up"}),
            ("context", {"query": "book a flight", "token_budget": 100}),
            ("forget", {"card_id": card_id}),
            ("feedback", {"card_id": card_id, "signal": 9}),
        ],
    )
    assert liked.structured_content["id"] == card_id
    assert memory.get(user, card_id).reward > 0
    assert "I prefer window seats" in block.content[0].text
    assert forgot.structured_content == {"id": card_id, "forgotten": True, "hard": False}
    assert memory.get(user, card_id).status.value == "forgotten"
    assert bad.is_error
    assert "signal" in bad.content[0].text


def test_task_tools_track_what_is_ready(memory: Memory, user: str):
    server = build_server(memory, user)
    (design,) = call(server, [("task_add", {"subject": "Design the API"})])
    design_id = design.structured_content["id"]
    build, ready, blocked = call(
        server,
        [
            ("task_add", {"subject": "Build it", "blocked_by": [design_id]}),
            ("task_ready", {}),
            ("task_blocked", {}),
        ],
    )
    build_id = build.structured_content["id"]
    assert [t["id"] for t in ready.structured_content["result"]] == [design_id]
    assert [
        (b["id"], [x["id"] for x in b["blockers"]]) for b in blocked.structured_content["result"]
    ] == [(build_id, [design_id])]
    early, done, ready_after = call(
        server,
        [
            ("task_update", {"task_id": build_id, "status": "completed"}),
            ("task_update", {"task_id": design_id, "status": "completed"}),
            ("task_ready", {}),
        ],
    )
    assert early.is_error
    assert "ConflictError" in early.content[0].text
    assert done.structured_content["status"] == "completed"
    assert [t["id"] for t in ready_after.structured_content["result"]] == [build_id]


def test_every_line_gets_an_answer_with_its_id(home: Path):
    import json
    import select
    import subprocess

    lines = [
        "hello, not json",
        "[1, 2]",
        '{"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}',  # not an id: null
        '{"jsonrpc": "2.0", "id": true, "method": "ping"}',
        '{"jsonrpc": "2.0", "id": null, "method": "ping"}',
        '{"jsonrpc": "2.0", "id": 3, "method": "ping", "params": [1, 2]}',
        '{"jsonrpc": "2.0", "id": "four", "method": "tools/call", "params": {"name": 5}}',
        '{"jsonrpc": "2.0", "id": 5, "method": 5}',
        '{"id": 6, "method": "ping"}',
        '{"jsonrpc": "2.0", "id": 7, "method": "ping"}',
    ]
    server = subprocess.Popen(
        [sys.executable, "-m", "graphmem.mcp_server", "--home", str(home), "--user", "alice"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stdin is not None
    assert server.stdout is not None
    replies = []
    for line in lines:  # one at a time: each is answered before the next is sent
        server.stdin.write(line + "\n")
        server.stdin.flush()
        ready, _, _ = select.select([server.stdout], [], [], 60)
        assert ready, f"no answer to {line}"
        replies.append(json.loads(server.stdout.readline()))
    server.stdin.close()
    assert server.wait(timeout=60) == 0, server.stderr.read() if server.stderr else ""
    assert [(r["id"], r.get("error", {}).get("code")) for r in replies] == [
        (None, -32700),  # parse error
        (None, -32600),  # JSON, but not a request
        (None, -32600),  # ids that are not JSON-RPC ids cannot be echoed
        (None, -32600),
        (None, -32600),
        (3, -32600),  # a request with its id: answered with it
        ("four", -32602),  # the SDK's own answer to a bad tool call
        (5, -32600),
        (6, -32600),
        (7, None),  # the server reads on: the next request is answered
    ]
