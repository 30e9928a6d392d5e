"""One ingestion path for every door: the same file ingested with `graphmem ingest` and
posted to the HTTP ingest routes gives the same cards and the same people."""

from __future__ import annotations

import json
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from graphmem import Memory
from graphmem.cli import app
from graphmem.service import create_app
from ingestion.loaders import load_conversation
from tests.conftest import short_tmpdir

FIXTURES = Path(__file__).parent / "fixtures"
#: what differs between two users holding the same memory (ids and hashes include the
#: user), or between two writes of it
PER_USER = {"id", "user_id", "content_hash", "identity", "created_at", "updated_at", "last_seen"}

CONVERSATION = [
    {"session_id": "s1", "date": "2024-03-20"},
    {"session_id": "s1", "turn": 0, "speaker": "user", "text": "My sister Alice lives in Lyon."},
    {"session_id": "s1", "turn": 1, "speaker": "user", "text": "Ali loves sushi, she says."},
    {"session_id": "s1", "turn": 2, "speaker": "user", "text": "Bob, my manager, is in Berlin."},
    {"session_id": "s2", "date": "2024-04-02"},
    {"session_id": "s2", "turn": 0, "speaker": "user", "text": "Alice moved to Paris last week."},
    {"session_id": "s2", "turn": 1, "speaker": "assistant", "text": "How is she finding it?"},
    {"session_id": "s2", "turn": 2, "speaker": "user", "text": "My new manager is Priya."},
]


@pytest.fixture(scope="module")
def home() -> Iterator[Path]:
    path = short_tmpdir()
    yield path
    from graphmem.store.embedded import EmbeddedServer

    EmbeddedServer(path).stop()
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def memory(home: Path) -> Iterator[Memory]:
    with Memory.open(home, keep_server=True) as mem:
        yield mem


@pytest.fixture(scope="module")
def http(memory: Memory) -> Iterator[TestClient]:
    with TestClient(create_app(memory)) as client:
        yield client


def cli_ingest(home: Path, path: Path, user: str) -> dict[str, Any]:
    done = CliRunner().invoke(
        app, ["--home", str(home), "ingest", str(path), "--user", user, "--json"]
    )
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def held(memory: Memory, user: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A user's cards (every status) and people, without what names the user or the write."""
    cards = sorted(
        (c.model_dump(mode="json", exclude=PER_USER) for c in memory.cards(user, status=None)),
        key=json.dumps,
    )
    people = [p.model_dump(mode="json", exclude={"user_id"}) for p in memory.people(user)]
    return cards, sorted(people, key=json.dumps)


def test_a_conversation_by_cli_and_by_http_gives_the_same_memory(home, memory, http, tmp_path):
    path = tmp_path / "chat.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in CONVERSATION))
    by_cli, by_http = (f"{door}-{uuid.uuid4().hex[:8]}" for door in ("cli", "http"))

    report = cli_ingest(home, path, by_cli)
    turns = [t.model_dump(exclude_none=True) for t in load_conversation(path)]
    posted = http.post(f"/v1/users/{by_http}/ingest/conversation", json={"turns": turns})
    assert posted.status_code == 200, posted.text

    cards, people = held(memory, by_cli)
    assert held(memory, by_http) == (cards, people)
    by_name = {p["name"]: p for p in people}
    assert by_name["Alice"]["relationship"] == "sister"
    assert by_name["Ali"]["maybe_same_as"] == ["Alice"]  # linked for review, not merged
    assert (by_name["Bob"]["relationship"], by_name["Priya"]["relationship"]) == (
        "former manager",
        "manager",
    )
    out = posted.json()
    assert (
        (out["cards"], out["created"])
        == (report["cards"], report["created"])
        == (
            len(cards),
            len(cards),
        )
    )
    assert sorted(out["people"]) == sorted(report["people"])


def test_a_document_by_cli_and_by_http_gives_the_same_memory(home, memory, http):
    path = FIXTURES / "notes.md"
    by_cli, by_http = (f"{door}-{uuid.uuid4().hex[:8]}" for door in ("cli", "http"))

    cli_ingest(home, path, by_cli)
    body = {
        "document": path.name,
        "text": path.read_text(encoding="utf-8"),
        "timestamp": int(path.stat().st_mtime * 1000),  # a file's time is when it was written
    }
    posted = http.post(f"/v1/users/{by_http}/ingest/text", json=body)
    assert posted.status_code == 200, posted.text

    cards, people = held(memory, by_cli)
    assert cards
    assert held(memory, by_http) == (cards, people)
    assert "Bob" in {p["name"] for p in people}


def test_a_cards_file_by_cli_and_by_http_gives_the_same_memory(home, memory, http):
    path = FIXTURES / "cards.jsonl"
    by_cli, by_http = (f"{door}-{uuid.uuid4().hex[:8]}" for door in ("cli", "http"))

    cli_ingest(home, path, by_cli)
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for record in records:
        record.pop("user_id", None)
    posted = http.post(f"/v1/users/{by_http}/ingest/cards", json={"cards": records})
    assert posted.status_code == 200, posted.text

    cards, people = held(memory, by_cli)
    assert len(cards) == len(records)
    assert held(memory, by_http) == (cards, people)
