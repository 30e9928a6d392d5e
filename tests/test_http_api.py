"""The HTTP API through FastAPI's TestClient, against the real embedded store.

Two users, each with an API key of their own, plus an admin key: every route is called
as its owner, and every route is refused (403, never the other user's data) with the
other user's key.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from graphmem import Memory
from graphmem.algorithms.feedback import apply_feedback
from graphmem.errors import ValidationError
from graphmem.service import ApiKeys, ServiceSettings, check_bind, create_app
from graphmem.service.auth import InsecureBindError, key_from_headers
from graphmem.service.logging import JsonFormatter

ALICE_KEY = "alice-key-0123456789"
BOB_KEY = "bob-key-0123456789"
ADMIN_KEY = "admin-key-0123456789"
PEANUTS = {
    "fact": "Alice is allergic to peanuts",
    "person": "Alice",
    "relationship": "sister",
    "timestamp": "2024-03-20T10:15:00Z",
    "backstory": "planning a birthday dinner",
    "source": {
        "session_id": "chat-42",
        "turn": 3,
        "speaker": "user",
        "text": "My sister Alice is allergic to peanuts.",
        "span": [0, 38],
    },
}


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture(scope="module")
def users() -> tuple[str, str]:
    suffix = uuid.uuid4().hex[:8]
    return f"alice-{suffix}", f"bob-{suffix}"


@pytest.fixture(scope="module")
def client(memory: Memory, users: tuple[str, str]) -> Iterator[TestClient]:
    alice, bob = users
    keys = ApiKeys.parse({ALICE_KEY: [alice], BOB_KEY: [bob], ADMIN_KEY: ["*"]})
    app = create_app(memory, settings=ServiceSettings(api_keys=keys, max_body_bytes=64_000))

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("secret internals: /srv/graphmem/db password=hunter2")

    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture
def alice(client: TestClient, users: tuple[str, str]) -> tuple[TestClient, str, dict]:
    return client, users[0], bearer(ALICE_KEY)


# -- cards ------------------------------------------------------------------------------
def test_remember_get_and_list_a_card(alice):
    client, user, auth = alice
    made = client.post(f"/v1/users/{user}/cards", json=PEANUTS, headers=auth)
    assert made.status_code == 200
    card = made.json()
    assert (card["person"], card["relationship"], card["timestamp"], card["version"]) == (
        "Alice",
        "sister",
        1710929700000,
        1,
    )
    again = client.post(f"/v1/users/{user}/cards", json=PEANUTS, headers=auth).json()
    assert again["id"] == card["id"]
    assert again["version"] == 1
    got = client.get(f"/v1/users/{user}/cards/{card['id']}", headers=auth).json()
    assert got["source"]["session_id"] == "chat-42"
    assert got["source"]["span"] == [0, 38]
    listed = client.get(f"/v1/users/{user}/cards", params={"status": "all"}, headers=auth)
    assert card["id"] in [c["id"] for c in listed.json()]


def test_a_fact_posted_twice_without_a_time_is_one_card(alice):
    client, user, auth = alice
    tea = {"fact": f"I like green tea {uuid.uuid4().hex[:6]}"}
    first = client.post(f"/v1/users/{user}/cards", json=tea, headers=auth).json()
    second = client.post(f"/v1/users/{user}/cards", json=tea, headers=auth).json()
    assert (second["id"], second["seen_count"]) == (first["id"], 2)


def test_batch_is_validated_before_anything_is_written(alice):
    client, user, auth = alice
    good = {"fact": f"I collect stamps {uuid.uuid4().hex}", "category": "preference"}
    bad = client.post(
        f"/v1/users/{user}/cards:batch",
        json={"cards": [good, {"fact": "ok", "timestamp": "next tuesday"}]},
        headers=auth,
    )
    assert bad.status_code == 422
    assert bad.json()["field"] == "cards.1.timestamp"
    facts = [c["fact"] for c in client.get(f"/v1/users/{user}/cards", headers=auth).json()]
    assert good["fact"] not in facts
    done = client.post(
        f"/v1/users/{user}/cards:batch", json={"cards": [good, good]}, headers=auth
    ).json()
    assert done["created"] == 1
    assert len(done["ids"]) == 2
    assert done["ids"][0] == done["ids"][1]


def test_recall_context_people_and_provenance(alice):
    client, user, auth = alice
    card = client.post(f"/v1/users/{user}/cards", json=PEANUTS, headers=auth).json()
    hits = client.post(
        f"/v1/users/{user}/recall",
        json={"query": "what is my sister allergic to?", "k": 3},
        headers=auth,
    ).json()
    assert hits[0]["card"]["id"] == card["id"]
    assert "graph" in hits[0]["found_by"]
    assert hits[0]["relationship"] == "sister"
    block = client.post(
        f"/v1/users/{user}/context",
        json={"query": "dinner for my sister", "token_budget": 200},
        headers=auth,
    ).json()
    assert "Alice is allergic to peanuts" in block["context"]
    people = client.get(f"/v1/users/{user}/people", headers=auth).json()
    assert {"name": "Alice", "relationship": "sister"}.items() <= next(
        p for p in people if p["name"] == "Alice"
    ).items()
    story = client.get(f"/v1/users/{user}/cards/{card['id']}/provenance", headers=auth).json()
    assert (story["person"], story["relationship"], story["source"]["turn"]) == (
        "Alice",
        "sister",
        3,
    )


def test_forget_restore_and_hard_forget(alice):
    client, user, auth = alice
    card = client.post(
        f"/v1/users/{user}/cards", json={"fact": "I live in Porto"}, headers=auth
    ).json()
    base = f"/v1/users/{user}/cards/{card['id']}"
    assert client.post(f"{base}/forget", headers=auth).json() == {
        "id": card["id"],
        "forgotten": True,
        "hard": False,
    }
    assert client.get(base, headers=auth).json()["status"] == "forgotten"
    assert client.post(f"{base}/restore", headers=auth).json()["status"] == "active"
    assert client.post(f"{base}/restore", headers=auth).status_code == 409
    assert client.post(f"{base}/forget", json={"hard": True}, headers=auth).status_code == 200
    gone = client.get(base, headers=auth)
    assert gone.status_code == 404
    assert gone.json()["error"] == "not_found"


def test_feedback_moves_reward_as_the_library_does(alice):
    client, user, auth = alice
    card = client.post(f"/v1/users/{user}/cards", json={"fact": "I like jazz"}, headers=auth).json()
    base = f"/v1/users/{user}/cards/{card['id']}/feedback"
    expected = apply_feedback(card["reward"], card["confidence"], "up")
    after = client.post(base, json={"signal": "up"}, headers=auth).json()
    assert (after["reward"], after["confidence"]) == (expected.reward, expected.confidence)
    bad = client.post(base, json={"signal": 9}, headers=auth)
    assert bad.status_code == 422
    assert bad.json()["field"].startswith("signal")


def test_consolidate_dry_run_reports_without_writing(alice):
    client, user, auth = alice
    report = client.post(
        f"/v1/users/{user}/consolidate", json={"dry_run": True}, headers=auth
    ).json()
    assert (report["user_id"], report["dry_run"]) == (user, True)
    assert sorted(report["steps"]) == ["abstraction", "conflicts", "forgetting"]


# -- ingest -----------------------------------------------------------------------------
def test_ingest_conversation_extracts_who_and_when(alice):
    client, user, auth = alice
    turns = [
        {
            "session_id": "chat-7",
            "turn": 0,
            "speaker": "user",
            "text": "My sister Alice is allergic to peanuts.",
            "session_date": "2024-03-20",
        }
    ]
    done = client.post(
        f"/v1/users/{user}/ingest/conversation", json={"turns": turns}, headers=auth
    ).json()
    assert done["cards"] == 1
    card = client.get(f"/v1/users/{user}/cards/{done['ids'][0]}", headers=auth).json()
    assert (card["fact"], card["person"], card["relationship"], card["timestamp"]) == (
        "My sister Alice is allergic to peanuts",
        "Alice",
        "sister",
        1710892800000,
    )
    undated = client.post(
        f"/v1/users/{user}/ingest/conversation",
        json={"turns": [{"session_id": "s", "turn": 0, "speaker": "user", "text": "hi"}]},
        headers=auth,
    )
    assert undated.status_code == 422
    assert undated.json()["field"] == "turns.0"
    blank = {"session_id": "s", "turn": 0, "speaker": "u", "text": "hi", "timestamp": ""}
    empty = client.post(
        f"/v1/users/{user}/ingest/conversation",
        json={"turns": [blank | {"session_date": ""}]},
        headers=auth,
    )  # an empty time is no time: 422, not a 500 (found by schemathesis)
    assert (empty.status_code, empty.json()["field"]) == (422, "turns.0")


def test_ingest_text_and_cards(alice):
    client, user, auth = alice
    text = client.post(
        f"/v1/users/{user}/ingest/text",
        headers=auth,
        json={
            "document": "notes.md",
            "timestamp": "2024-03-31",
            "text": "My brother Tom visited me in April.",
        },
    ).json()
    tom = client.get(f"/v1/users/{user}/cards/{text['ids'][0]}", headers=auth).json()
    assert (tom["person"], tom["relationship"], tom["source"]["document"]) == (
        "Tom",
        "brother",
        "notes.md",
    )
    cards = client.post(
        f"/v1/users/{user}/ingest/cards", headers=auth, json={"cards": [PEANUTS]}
    ).json()
    assert (cards["cards"], cards["created"] + cards["unchanged"]) == (1, 1)
    foreign = client.post(
        f"/v1/users/{user}/ingest/cards",
        headers=auth,
        json={"cards": [{**PEANUTS, "user_id": "someone-else"}]},
    )
    assert foreign.status_code == 422
    assert foreign.json()["field"] == "user_id"


# -- tasks ------------------------------------------------------------------------------
def test_task_lifecycle(alice):
    client, user, auth = alice
    base = f"/v1/users/{user}/tasks"
    design = client.post(base, json={"subject": "Design the API"}, headers=auth)
    assert design.status_code == 201
    design = design.json()
    build = client.post(
        base, json={"subject": "Build it", "blocked_by": [design["id"]]}, headers=auth
    ).json()
    ready = [t["id"] for t in client.get(f"{base}/ready", headers=auth).json()]
    assert design["id"] in ready
    assert build["id"] not in ready
    blocked = client.get(f"{base}/blocked", headers=auth).json()
    assert [b["blockers"][0]["id"] for b in blocked if b["task"]["id"] == build["id"]] == [
        design["id"]
    ]
    early = client.post(f"{base}/{build['id']}/complete", headers=auth)
    assert early.status_code == 409
    assert design["id"] in early.json()["detail"]
    cycle = client.patch(
        f"{base}/{design['id']}", json={"add_blocked_by": [build["id"]]}, headers=auth
    )
    assert cycle.status_code == 409
    assert cycle.json()["error"] == "conflict"
    moved = client.patch(
        f"{base}/{design['id']}", headers=auth, json={"status": "in_progress", "owner": "planner"}
    ).json()
    assert (moved["status"], moved["owner"], moved["version"]) == ("in_progress", "planner", 2)
    assert (
        client.post(f"{base}/{design['id']}/complete", headers=auth).json()["status"] == "completed"
    )
    assert build["id"] in [t["id"] for t in client.get(f"{base}/ready", headers=auth).json()]
    assert design["id"] in [t["id"] for t in client.get(f"{base}/done", headers=auth).json()]
    assert client.get(f"{base}/{build['id']}", headers=auth).json()["blocked_by"] == [design["id"]]
    listed = client.get(base, params={"status": "completed"}, headers=auth).json()
    assert design["id"] in [t["id"] for t in listed]
    assert client.get(f"{base}/nope", headers=auth).status_code == 404


# -- export / import --------------------------------------------------------------------
def test_export_then_import_changes_nothing(alice):
    client, user, auth = alice
    client.post(f"/v1/users/{user}/cards", json=PEANUTS, headers=auth)
    before = client.get(f"/v1/users/{user}/export", headers=auth)
    assert before.headers["content-type"].startswith("application/x-ndjson")
    lines = before.text.splitlines()
    assert json.loads(lines[0])["type"] == "header"
    report = client.post(
        f"/v1/users/{user}/import",
        content=before.content,
        headers={**auth, "content-type": "application/x-ndjson"},
    ).json()
    assert report["user_id"] == user
    assert report["counts"]["card"] >= 1
    after = client.get(f"/v1/users/{user}/export", headers=auth).text.splitlines()
    assert after == lines
    bad = client.post(
        f"/v1/users/{user}/import",
        content=b"{not json\n",
        headers={**auth, "content-type": "application/x-ndjson"},
    )
    assert bad.status_code == 422


# -- service ----------------------------------------------------------------------------
def test_health_needs_no_key_and_names_the_store(client):
    answer = client.get("/health")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok", "version": "0.1.0", "store": "falkordb"}
    assert len(answer.headers["x-request-id"]) == 16


def user_routes(card_id: str, task_id: str) -> list[tuple[str, str, dict | None]]:
    """Every per-user route (method, path below /v1/users/{user}, JSON body)."""
    return [
        ("POST", "/cards", {"fact": "intruder fact"}),
        ("POST", "/cards:batch", {"cards": [{"fact": "intruder fact"}]}),
        ("GET", "/cards", None),
        ("GET", f"/cards/{card_id}", None),
        ("POST", f"/cards/{card_id}/feedback", {"signal": "down"}),
        ("POST", f"/cards/{card_id}/forget", {"hard": True}),
        ("POST", f"/cards/{card_id}/restore", None),
        ("GET", f"/cards/{card_id}/provenance", None),
        ("GET", f"/cards/{card_id}/history", None),
        ("POST", f"/cards/{card_id}/revert", {"to_version": 1}),
        ("POST", "/recall", {"query": "peanuts"}),
        ("POST", "/context", {"query": "peanuts"}),
        ("GET", "/people", None),
        ("POST", "/consolidate", {"dry_run": True}),
        (
            "POST",
            "/ingest/conversation",
            {
                "turns": [
                    {
                        "session_id": "s",
                        "turn": 0,
                        "speaker": "user",
                        "text": "I am Mallory.",
                        "session_date": "2024-01-01",
                    }
                ]
            },
        ),
        ("POST", "/ingest/text", {"document": "x.md", "text": "I am Mallory."}),
        ("POST", "/ingest/cards", {"cards": [{"fact": "intruder fact"}]}),
        ("POST", "/tasks", {"subject": "intrude"}),
        ("GET", "/tasks", None),
        ("GET", "/tasks/ready", None),
        ("GET", "/tasks/blocked", None),
        ("GET", "/tasks/done", None),
        ("GET", f"/tasks/{task_id}", None),
        ("PATCH", f"/tasks/{task_id}", {"subject": "hijacked"}),
        ("POST", f"/tasks/{task_id}/complete", {"force": True}),
        ("GET", "/export", None),
        ("POST", "/import", None),
    ]


def test_openapi_lists_every_user_route(client):
    paths = client.get("/openapi.json").json()["paths"]
    documented = {(m.upper(), p) for p, ops in paths.items() for m in ops}
    for method, path, _ in user_routes("{card_id}", "{task_id}"):
        assert (method, "/v1/users/{user_id}" + path) in documented, (method, path)


def test_every_request_model_has_examples(client):
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    request_models = [
        "CardIn",
        "CardBatch",
        "FeedbackIn",
        "ForgetIn",
        "RecallIn",
        "ContextIn",
        "ConsolidateIn",
        "RevertIn",
        "TurnIn",
        "ConversationIn",
        "TextIn",
        "CardsIn",
        "TaskIn",
        "TaskUpdateIn",
        "CompleteIn",
        "TurnsIn",
        "NewTurn",
        "SearchIn",
        "CompactIn",
        "TraceIn",
        "StepIn",
        "ToolCallIn",
        "CompleteTraceIn",
        "SimilarIn",
        "FixIn",
        "LookupIn",
        "StrategyFeedbackIn",
    ]
    for name in request_models:
        assert schemas[name]["examples"], name


def test_a_key_for_one_user_never_reaches_another(client, users):
    alice, bob = users
    auth_bob = bearer(BOB_KEY)
    secret = {"fact": f"Bob's secret {uuid.uuid4().hex}", "person": "Eve"}
    card = client.post(f"/v1/users/{bob}/cards", json=secret, headers=auth_bob).json()
    task = client.post(
        f"/v1/users/{bob}/tasks", json={"subject": "Bob's plan"}, headers=auth_bob
    ).json()
    for method, path, body in user_routes(card["id"], task["id"]):
        for headers in (bearer(ALICE_KEY), {"X-API-Key": ALICE_KEY}):
            answer = client.request(method, f"/v1/users/{bob}{path}", json=body, headers=headers)
            assert answer.status_code == 403, (method, path, answer.text)
            assert secret["fact"] not in answer.text
            assert card["id"] not in answer.text
        anonymous = client.request(method, f"/v1/users/{bob}{path}", json=body)
        assert anonymous.status_code == 401, (method, path)
    # Bob's ids under Alice's own path are simply not there.
    for path in (f"/cards/{card['id']}", f"/tasks/{task['id']}"):
        assert client.get(f"/v1/users/{alice}{path}", headers=bearer(ALICE_KEY)).status_code == 404
    after = client.get(f"/v1/users/{bob}/cards/{card['id']}", headers=auth_bob).json()
    assert (after["status"], after["reward"]) == ("active", 0.0)
    assert (
        client.get(f"/v1/users/{bob}/tasks/{task['id']}", headers=bearer(ADMIN_KEY)).json()[
            "subject"
        ]
        == "Bob's plan"
    )


def test_oversized_bodies_are_refused_with_413(alice):
    client, user, auth = alice
    big = {"cards": [{"fact": "x" * 10_000} for _ in range(8)]}
    answer = client.post(f"/v1/users/{user}/cards:batch", json=big, headers=auth)
    assert answer.status_code == 413
    assert answer.json()["error"] == "payload_too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while streaming
        yield b'{"cards": ['
        for _ in range(100):
            yield b'{"fact": "' + b"y" * 1000 + b'"},'
        yield b'{"fact": "z"}]}'

    streamed = client.post(
        f"/v1/users/{user}/cards:batch",
        content=chunks(),
        headers={**auth, "content-type": "application/json"},
    )
    assert streamed.status_code == 413


def test_validation_errors_name_the_field(alice):
    client, user, auth = alice
    empty = client.post(f"/v1/users/{user}/cards", json={"fact": ""}, headers=auth)
    assert (empty.status_code, empty.json()["field"]) == (422, "fact")
    unknown = client.post(
        f"/v1/users/{user}/cards", json={"fact": "x", "colour": "red"}, headers=auth
    )
    assert (unknown.status_code, unknown.json()["field"]) == (422, "colour")
    k = client.post(f"/v1/users/{user}/recall", json={"query": "x", "k": 0}, headers=auth)
    assert (k.status_code, k.json()["field"]) == (422, "k")
    limit = client.get(f"/v1/users/{user}/cards", params={"limit": 0}, headers=auth)
    assert (limit.status_code, limit.json()["field"]) == (422, "limit")
    long_user = "u" * 200
    user_answer = client.get(f"/v1/users/{long_user}/people", headers=bearer(ADMIN_KEY))
    assert (user_answer.status_code, user_answer.json()["field"]) == (422, "user_id")


def test_unexpected_errors_are_a_generic_500_with_a_request_id(client, caplog):
    with caplog.at_level(logging.ERROR, logger="graphmem.service"):
        answer = client.get("/boom")
    assert answer.status_code == 500
    body = answer.json()
    assert body["error"] == "internal_error"
    assert body["request_id"] == answer.headers["x-request-id"]
    for leak in ("Traceback", "RuntimeError", "hunter2", "/srv"):
        assert leak not in answer.text
    assert any("hunter2" in (r.exc_text or JsonFormatter().format(r)) for r in caplog.records)


def test_one_json_log_line_per_request_without_secrets(alice, caplog):
    client, user, auth = alice
    with caplog.at_level(logging.INFO, logger="graphmem.service"):
        answer = client.post(
            f"/v1/users/{user}/cards", headers=auth, json={"fact": "My PIN is 4321"}
        )
    lines = [JsonFormatter().format(r) for r in caplog.records if r.getMessage() == "request"]
    assert len(lines) == 1
    entry = json.loads(lines[0])
    assert set(entry) == {
        "ts",
        "level",
        "logger",
        "msg",
        "method",
        "path",
        "status",
        "duration_ms",
        "request_id",
        "user_id",
    }
    assert (entry["method"], entry["path"], entry["status"], entry["user_id"]) == (
        "POST",
        "/v1/users/{user_id}/cards",
        200,
        user,
    )
    assert entry["request_id"] == answer.headers["x-request-id"]
    assert ALICE_KEY not in lines[0]
    assert "4321" not in lines[0]


def test_concurrent_requests_share_one_memory(alice):
    client, user, auth = alice
    facts = [f"I visited city number {i} {uuid.uuid4().hex[:6]}" for i in range(12)]

    def remember_and_recall(fact: str) -> tuple[int, int]:
        made = client.post(f"/v1/users/{user}/cards", json={"fact": fact}, headers=auth)
        found = client.post(f"/v1/users/{user}/recall", json={"query": fact, "k": 1}, headers=auth)
        return made.status_code, found.status_code

    with ThreadPoolExecutor(max_workers=6) as pool:
        assert set(pool.map(remember_and_recall, facts)) == {(200, 200)}
    stored = {
        c["fact"]
        for c in client.get(f"/v1/users/{user}/cards", params={"limit": 1000}, headers=auth).json()
    }
    assert set(facts) <= stored


def test_without_keys_everything_is_open(memory, user):
    app = create_app(memory, settings=ServiceSettings())
    with TestClient(app) as open_client:
        assert open_client.get(f"/v1/users/{user}/people").json() == []


# -- keys and binding -------------------------------------------------------------------
def test_api_keys_from_env_json_and_toml_file(tmp_path: Path):
    path = tmp_path / "keys.toml"
    path.write_text('[keys]\n"file-key-123456" = ["carol"]\n', encoding="utf-8")
    keys = ApiKeys.from_env(
        {
            "GRAPHMEM_API_KEYS": '{"env-key-1234567": ["dave", "erin"]}',
            "GRAPHMEM_API_KEYS_FILE": str(path),
        }
    )
    assert keys.allows("file-key-123456", "carol")
    assert keys.allows("env-key-1234567", "erin")
    assert not keys.allows("file-key-123456", "dave")
    assert keys.users_of("nope") is None
    with pytest.raises(ValidationError) as short:
        ApiKeys.parse({"abc": ["x"]})
    assert short.value.field == "GRAPHMEM_API_KEYS"
    assert key_from_headers("Bearer  tok-1 ", None) == "tok-1"
    assert key_from_headers("Basic abc", "tok-2") == "tok-2"


def test_no_keys_refuses_a_public_bind_unless_insecure():
    none = ApiKeys()
    assert "loopback" in check_bind("127.0.0.1", none)
    with pytest.raises(InsecureBindError):
        check_bind("0.0.0.0", none)
    assert "--insecure-no-auth" in check_bind("0.0.0.0", none, insecure_no_auth=True)
    assert check_bind("0.0.0.0", ApiKeys.parse({"a-long-key-1": ["u"]})) is None


def test_a_store_that_went_away_is_a_503(home: Path):
    from graphmem.store.embedded import EmbeddedServer

    mem = Memory.open(home)
    try:
        with TestClient(create_app(mem, settings=ServiceSettings())) as down:
            assert down.get("/health").json()["status"] == "ok"
            EmbeddedServer(home).stop()
            data = home / "falkordb" / "data"
            data.rename(home / "data-away")
            data.write_text("not a directory")  # so it cannot be started again
            health = down.get("/health")
            assert health.status_code == 503
            assert health.json() == {
                "status": "unavailable",
                "version": "0.1.0",
                "store": "falkordb",
            }
            people = down.get("/v1/users/alice/people")
            assert people.status_code == 503
            assert people.json()["error"] == "store_unavailable"
            assert str(home) not in people.text
    finally:
        if (home / "data-away").exists():
            (home / "falkordb" / "data").unlink()
            (home / "data-away").rename(home / "falkordb" / "data")
        mem.close()
