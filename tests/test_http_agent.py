"""The agent-loop routes over HTTP (TestClient, real store): sessions, traces,
strategies, quota; over a quota is a 429 with nothing written, other users unaffected
while many clients write at once."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from graphmem import Memory
from graphmem.service import ApiKeys, ServiceSettings, create_app

KEY = "agent-key-0123456789"
OTHER_KEY = "other-key-0123456789"


@pytest.fixture
def user() -> str:
    return f"agent-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def client(memory: Memory, user: str) -> Iterator[TestClient]:
    keys = ApiKeys.parse({KEY: [user], OTHER_KEY: ["someone-else"], "admin-0123456789": ["*"]})
    app = create_app(memory, settings=ServiceSettings(api_keys=keys))
    with TestClient(app, headers={"Authorization": f"Bearer {KEY}"}) as test_client:
        yield test_client


def test_sessions_over_http(client: TestClient, user: str) -> None:
    base = f"/v1/users/{user}/sessions"
    turns = [
        {"role": "user", "text": "My sister Alice is allergic to peanuts."},
        {"role": "assistant", "text": "Noted: no peanuts for Alice.", "metadata": {"n": 1}},
    ]
    made = client.post(f"{base}/chat-1/turns", json={"turns": turns})
    assert made.status_code == 201, made.text
    assert [t["turn"] for t in made.json()] == [0, 1]
    assert [t["text"] for t in client.get(f"{base}/chat-1/turns").json()] == [
        t["text"] for t in turns
    ]
    [info] = client.get(base).json()
    assert (info["session_id"], info["turns"]) == ("chat-1", 2)
    hits = client.post(f"{base}/search", json={"query": "Alice and peanuts", "k": 5}).json()
    assert sorted(h["turn"]["text"] for h in hits) == sorted(t["text"] for t in turns)
    assert hits[0]["score"] >= hits[1]["score"] > 0.3
    compact = client.post(f"{base}/chat-1/compact", json={"budget_tokens": 1000})
    assert (compact.status_code, compact.json()["folded"]) == (200, [])
    window = client.get(f"{base}/chat-1/window").json()
    assert (window["summary"], len(window["turns"])) == (None, 2)
    first_id = made.json()[0]["id"]
    assert client.delete(f"{base}/other/turns/{first_id}").status_code == 404
    assert client.delete(f"{base}/chat-1/turns/{first_id}").status_code == 204
    assert client.delete(f"{base}/chat-1").json() == {"session_id": "chat-1", "cleared": 1}
    bad = client.post(f"{base}/chat-1/turns", json={"turns": [{"role": "robot", "text": "x"}]})
    assert (bad.status_code, bad.json()["error"]) == (422, "validation_error")
    stranger = client.get(base, headers={"Authorization": f"Bearer {OTHER_KEY}"})
    assert stranger.status_code == 403


def test_traces_and_strategies_over_http(client: TestClient, user: str) -> None:
    base = f"/v1/users/{user}"
    trace = client.post(f"{base}/traces", json={"task": "find a restaurant", "session_id": "s"})
    assert trace.status_code == 201
    trace_id = trace.json()["id"]
    step = client.post(f"{base}/traces/{trace_id}/steps", json={"action": "search"}).json()
    call = client.post(
        f"{base}/traces/{trace_id}/steps/{step['id']}/tool-calls",
        json={"tool": "search", "arguments": {"query": ""}, "status": "failure", "error": "empty"},
    )
    assert (call.status_code, call.json()["status"]) == (201, "failure")
    done = client.post(f"{base}/traces/{trace_id}/complete", json={"success": True}).json()
    assert done["steps"][0]["tool_calls"][0]["arguments"] == {"query": ""}
    [stats] = client.get(f"{base}/tools/stats").json()
    assert (stats["tool"], stats["calls"], stats["failed"]) == ("search", 1, 1)
    similar = client.post(f"{base}/traces/similar", json={"task": "restaurant search"}).json()
    assert [h["trace"]["id"] for h in similar] == [trace_id]
    fix = client.post(
        f"{base}/strategies",
        json={
            "tool": "search",
            "error_type": "ValueError",
            "error": "empty",
            "original": {"query": ""},
            "fixed": {"query": "food"},
        },
    )
    assert fix.status_code == 201
    [match] = client.post(
        f"{base}/strategies/lookup", json={"tool": "search", "error_type": "ValueError"}
    ).json()
    assert (match["strategy"]["id"], match["strategy"]["fixed"]) == (
        fix.json()["id"],
        {"query": "food"},
    )
    worked = client.post(f"{base}/strategies/{fix.json()['id']}/feedback", json={"worked": True})
    assert worked.json()["uses"] == 1


def test_over_quota_is_a_429_and_nothing_is_written_under_load(
    client: TestClient, memory: Memory, user: str
) -> None:
    """A user at the card quota gets 429 for a whole batch while other users, writing at
    the same time, are not affected; a rate limit answers with Retry-After."""
    memory.quotas.set_limits(user, cards=10)
    base = f"/v1/users/{user}"
    admin = {"Authorization": "Bearer admin-0123456789"}
    others = [f"{user}-other-{i}" for i in range(4)]

    def batch(owner: str, start: int, n: int, headers: dict[str, str] | None = None) -> int:
        cards = [
            {"fact": f"{owner} fact {start + i}", "timestamp": 1_700_000_000} for i in range(n)
        ]
        reply = client.post(
            f"/v1/users/{owner}/cards:batch", json={"cards": cards}, headers=headers
        )
        return reply.status_code

    assert batch(user, 0, 8) == 200
    with ThreadPoolExecutor(max_workers=6) as pool:
        refused = [pool.submit(batch, user, 100 + 10 * i, 5) for i in range(6)]
        ok = [pool.submit(batch, o, 10 * i, 5, admin) for i in range(6) for o in others]
        assert [f.result() for f in refused] == [429] * 6
        assert [f.result() for f in ok] == [200] * len(ok)
    assert memory.count(user) == {"active": 8}  # no refused batch left a card behind
    assert all(memory.count(o) == {"active": 30} for o in others)
    two = client.post(f"{base}/cards:batch", json={"cards": [{"fact": "a"}, {"fact": "b"}]})
    assert two.status_code == 200  # exactly up to the limit
    over = client.post(f"{base}/cards", json={"fact": "one too many"})
    body = over.json()
    assert (over.status_code, body["error"], body["field"]) == (429, "quota_exceeded", "cards")
    assert "Retry-After" not in over.headers  # waiting does not free cards
    quota = client.get(f"{base}/quota").json()
    assert (quota["cards"], quota["limits"]["cards"]) == (10, 10)
    memory.quotas.set_limits(user, cards=0, writes_per_minute=2)
    assert client.post(f"{base}/cards", json={"fact": "w1"}).status_code == 200
    assert client.post(f"{base}/cards", json={"fact": "w2"}).status_code == 200
    limited = client.post(f"{base}/cards", json={"fact": "w3"})
    assert (limited.status_code, limited.json()["field"]) == (429, "writes_per_minute")
    assert 1 <= int(limited.headers["Retry-After"]) <= 31
