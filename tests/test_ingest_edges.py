"""What ingestion refuses at its edges, whole and naming the line (issue 31): two turns
under one number (point 4), a binary file (point 5), a malformed line far into a long
conversation (point 7); and a card stored before those checks never makes a read fail."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from graphmem import Memory
from graphmem.cli import app
from graphmem.errors import ValidationError
from graphmem.service import create_app
from ingestion.pipeline import Checkpoint, file_sha, ingest_file


def said(i: int, *, turn: int | None = None) -> dict[str, object]:
    return {
        "session_id": "s1",
        "turn": i if turn is None else turn,
        "speaker": "user",
        "text": f"My sister Alice ran {i + 1} kilometres this morning, a new record for her.",
        "timestamp": 1_710_000_000_000 + i * 60_000,
    }


def jsonl(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def client(memory: Memory) -> Iterator[TestClient]:
    with TestClient(create_app(memory), raise_server_exceptions=False) as test_client:
        yield test_client


# -- point 4: repeated turn numbers -------------------------------------------------------
REPEATED = [said(i, turn=i % 10) for i in range(20)]


def test_a_repeated_turn_number_is_refused_naming_both_lines(home: Path, tmp_path: Path):
    path = jsonl(tmp_path / "repeats.jsonl", REPEATED)
    runner = CliRunner()
    result = runner.invoke(app, ["--home", str(home), "ingest", str(path), "--user", "u1"])
    output = " ".join(result.output.split())
    assert result.exit_code == 2, result.output
    assert "repeats.jsonl line 11: turn 0 of session 's1' again" in output
    assert "(first at repeats.jsonl line 1)" in output
    assert "Traceback" not in result.output
    listed = runner.invoke(app, ["--home", str(home), "list", "--user", "u1"])
    assert listed.exit_code == 3, listed.output  # no memory of u1: nothing was written


def test_a_repeated_turn_number_over_http_is_a_422(client, user: str):
    answer = client.post(f"/v1/users/{user}/ingest/conversation", json={"turns": REPEATED})
    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == "turns.10.turn"
    assert client.get(f"/v1/users/{user}/cards").json() == []


def test_a_card_whose_span_outruns_its_stored_source_still_reads(client, memory: Memory, user):
    """Two statements under one source id (what repeated turn numbers stored): the source
    keeps the first text, the second card's span points past it. Reads go on working."""
    short = {"session_id": "s1", "turn": 0, "speaker": "user", "text": "Hi"}
    memory.remember({"user_id": user, "fact": "The user said hi", "source": short})
    long_text = "My sister Alice is allergic to peanuts."
    memory.remember(
        {
            "user_id": user,
            "fact": "Alice is allergic to peanuts",
            "person": "Alice",
            "source": {**short, "text": long_text, "span": [0, len(long_text)]},
        }
    )
    cards = client.get(f"/v1/users/{user}/cards")
    assert cards.status_code == 200, cards.text
    peanuts = next(c for c in cards.json() if "peanuts" in c["fact"])
    assert (peanuts["source"]["text"], peanuts["source"]["span"]) == ("Hi", None)
    recall = client.post(f"/v1/users/{user}/recall", json={"query": "peanut allergy"})
    assert recall.status_code == 200, recall.text
    context = client.post(f"/v1/users/{user}/context", json={"query": "Alice"})
    assert context.status_code == 200, context.text
    assert "peanuts" in context.json()["context"]


# -- point 5: a binary file ---------------------------------------------------------------
@pytest.mark.parametrize("name", ["photo.jpg", "notes.txt", "chat.jsonl"])
def test_a_binary_file_is_refused_as_import_refuses_it(home: Path, tmp_path: Path, name: str):
    path = tmp_path / name
    path.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\n\x01\x02\x80\x81")
    result = CliRunner().invoke(app, ["--home", str(home), "ingest", str(path), "--user", "u1"])
    assert result.exit_code == 2, result.output
    assert f"{name} line 1: not UTF-8 text" in result.output
    assert "Traceback" not in result.output


# -- point 7: a malformed line far into a conversation -----------------------------------
def test_a_truncated_line_1001_writes_nothing_and_says_so(
    memory: Memory, user: str, tmp_path: Path
):
    lines = [json.dumps(said(i)) for i in range(1200)]
    lines[1000] = lines[1000][:40]  # cut mid-record, as a copy that stopped
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    checkpoints = tmp_path / "checkpoints"
    with pytest.raises(ValidationError) as refused:
        ingest_file(memory, path, user, progress=False, batch_size=256, checkpoint_dir=checkpoints)
    assert str(refused.value).startswith("long.jsonl line 1001: not valid JSON")
    assert str(refused.value).endswith("nothing of it was written: fix the file and run again")
    assert memory.count(user) == {}
    assert Checkpoint(checkpoints, file_sha(path), user, "conversation").records_done == 0
    # Fixed, it is ingested whole (the fixed file is new content: it starts from line 1).
    lines[1000] = json.dumps(said(1000))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = ingest_file(
        memory, path, user, progress=False, batch_size=256, checkpoint_dir=checkpoints
    )
    assert (report.records, report.resumed_from) == (1200, 0)
    assert memory.count(user)["active"] > 0
