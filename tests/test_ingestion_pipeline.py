"""Batch ingestion into a real store: streamed, resumable, idempotent."""

import shutil
from pathlib import Path

import pytest

from graphmem import Memory
from graphmem.errors import ValidationError
from ingestion.pipeline import Checkpoint, file_sha, ingest_file

FIXTURES = Path(__file__).parent / "fixtures"


class Interrupted(Exception):
    pass


def test_cards_file_twice_adds_nothing(memory: Memory, user: str):
    first = ingest_file(memory, FIXTURES / "cards.jsonl", user, progress=False)
    second = ingest_file(memory, FIXTURES / "cards.jsonl", user, progress=False)
    assert (first.format, first.records, first.created) == ("cards", 3, 3)
    assert (second.created, second.unchanged, second.updated) == (0, 3, 0)
    assert memory.count(user) == {"active": 3}


def test_conversation_ingest_and_rerun(memory: Memory, user: str):
    report = ingest_file(memory, FIXTURES / "conversation.jsonl", user, progress=False)
    assert (report.format, report.records, report.cards, report.created) == (
        "conversation",
        19,
        17,  # "I live in Paris. My sister Alice loves sushi ...": read in parts, kept whole
        17,
    )
    # every turn is accounted for, per speaker: read by the rules, kept as said, or skipped
    user_turns, assistant_turns = report.speakers["user"], report.speakers["assistant"]
    assert (user_turns.turns, user_turns.read, user_turns.kept) == (16, 12, 1)
    assert user_turns.skipped == {"small talk": 3}
    assert (assistant_turns.turns, assistant_turns.kept, assistant_turns.cards) == (2, 1, 1)
    assert assistant_turns.skipped == {"small talk": 1}
    assert report.languages["en"].turns == 18
    assert [(p.name, p.relationship) for p in report.people] == [
        ("Alice", "cousin"),
        ("Bob", "former manager"),  # Carol, "my boss", came after him
        ("Carol", "boss"),
        ("Tom", "neighbour"),
    ]
    stored = {c.fact: c for c in memory.cards(user)}
    assert stored["My sister is training for a marathon"].person == "Alice"
    assert stored["I moved to Berlin last week"].source.session_id == "s3"
    again = ingest_file(memory, FIXTURES / "conversation.jsonl", user, progress=False)
    assert (again.created, again.unchanged) == (0, 17)


def test_interrupted_run_resumes_after_the_last_written_batch(
    memory: Memory, user: str, tmp_path: Path
):
    path = tmp_path / "chat.jsonl"
    shutil.copy(FIXTURES / "conversation.jsonl", path)
    seen: list[int] = []

    def stop_after_two_batches(n: int) -> None:
        seen.append(n)
        if len(seen) == 2:
            raise Interrupted

    with pytest.raises(Interrupted):
        ingest_file(
            memory,
            path,
            user,
            batch_size=5,
            progress=stop_after_two_batches,
            checkpoint_dir=tmp_path / "ingest",
        )
    checkpoint = Checkpoint(tmp_path / "ingest", file_sha(path), user, "conversation")
    assert checkpoint.records_done == 10
    assert [p["name"] for p in checkpoint.people] == ["Alice", "Bob"]

    # session 1 (the assistant's turn and the user's question kept as said) and s2's first turn
    assert memory.count(user) == {"active": 10}
    report = ingest_file(
        memory, path, user, batch_size=5, progress=False, checkpoint_dir=tmp_path / "ingest"
    )
    assert (report.resumed_from, report.records, report.created) == (10, 9, 7)
    assert memory.count(user) == {"active": 16, "superseded": 1}  # Paris, by the move
    done = Checkpoint(tmp_path / "ingest", file_sha(path), user, "conversation")
    assert done.records_done == 0  # done: the next run starts afresh (and adds nothing)
    assert done.seed == []  # from the people known before the first run
    facts = {c.fact: (c.person, c.relationship) for c in memory.cards(user)}
    assert facts["He said I really deserved it"] == ("Bob", "manager")  # context survived


def test_text_file(memory: Memory, user: str):
    report = ingest_file(memory, FIXTURES / "notes.md", user, progress=False)
    assert (report.format, report.records, report.created) == ("text", 2, 4)
    assert {c.source.document for c in memory.cards(user)} == {"notes.md"}


def test_malformed_file_writes_nothing(memory: Memory, user: str):
    with pytest.raises(ValidationError, match=r"bad_timestamp\.jsonl line 3: timestamp"):
        ingest_file(memory, FIXTURES / "bad_timestamp.jsonl", user, progress=False, batch_size=2)
    assert memory.count(user) == {}  # the file is read whole before its first batch
