"""Reading cards, conversations and documents; errors name the file, line and field."""

import json
from pathlib import Path

import pytest

from graphmem.errors import ValidationError
from graphmem.timeutil import to_ms
from ingestion.loaders import (
    detect_format,
    load_cards,
    load_conversation,
    load_text,
    split_passages,
)

FIXTURES = Path(__file__).parent / "fixtures"


def write(tmp_path: Path, name: str, lines: list) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    return path


def test_cards_jsonl_is_lossless():
    cards = load_cards(FIXTURES / "cards.jsonl", "u1")
    assert [(c.fact, c.person, c.relationship, c.timestamp) for c in cards] == [
        ("Alice is allergic to peanuts", "Alice", "sister", to_ms("2024-03-20T10:15:00Z")),
        ("I prefer window seats on long flights", "me", "self", to_ms("2024-05-15T09:00:00Z")),
        ("Bob is my manager", "Bob", "manager", to_ms("2024-03-20T10:20:00Z")),
    ]
    assert cards[0].importance == 0.9
    assert cards[1].tags == ["travel"]
    assert cards[2].source.text[slice(*cards[2].source.span)] == "Bob, my manager,"
    assert {c.user_id for c in cards} == {"u1"}


def test_cards_json_object_with_cards_list():
    cards = load_cards(FIXTURES / "cards.json", "u1")
    assert [c.person for c in cards] == ["Alice", "Tom"]
    # same content (five fields) as in cards.jsonl = same card id, whatever the file format
    assert cards[0].id == load_cards(FIXTURES / "cards.jsonl", "u1")[0].id


def test_bad_timestamp_names_file_line_and_field():
    with pytest.raises(ValidationError) as err:
        load_cards(FIXTURES / "bad_timestamp.jsonl", "u1")
    assert str(err.value) == (
        "bad_timestamp.jsonl line 3: timestamp: not an ISO-8601 timestamp: 'last tuesday-ish'"
    )
    assert err.value.field == "timestamp"


def test_card_errors_in_json_arrays_name_the_record(tmp_path):
    path = tmp_path / "cards.json"
    path.write_text(json.dumps([{"fact": "ok"}, {"fact": "", "person": "Bob"}]))
    with pytest.raises(ValidationError, match=r"^cards\.json record 2: fact: "):
        load_cards(path, "u1")


def test_a_card_of_another_user_is_refused(tmp_path):
    path = write(
        tmp_path,
        "cards.jsonl",
        [{"fact": "mine", "user_id": "u1"}, {"fact": "theirs", "user_id": "u2"}],
    )
    with pytest.raises(ValidationError) as err:
        load_cards(path, "u1")
    assert str(err.value) == "cards.jsonl line 2: user_id: card belongs to 'u2', not to 'u1'"


def test_broken_json_and_unknown_fields(tmp_path):
    path = write(tmp_path, "cards.jsonl", [{"fact": "fine"}, '{"fact": "oops",'])
    with pytest.raises(ValidationError, match=r"^cards\.jsonl line 2: not valid JSON"):
        load_cards(path, "u1")
    path = write(tmp_path, "cards.jsonl", [{"fact": "fine", "colour": "red"}])
    with pytest.raises(
        ValidationError, match=r"^cards\.jsonl line 1: colour: Extra inputs are not permitted"
    ):
        load_cards(path, "u1")


def test_conversation_sessions_headers_and_dates():
    turns = load_conversation(FIXTURES / "conversation.jsonl")
    assert len(turns) == 18
    first = turns[0]
    assert (first.session_id, first.turn, first.speaker, first.text) == (
        "s1",
        0,
        "user",
        "Hi there!",
    )
    assert first.session_date == to_ms("2024-03-20")
    assert first.timestamp is None
    assert first.when == to_ms("2024-03-20")
    s2 = [t for t in turns if t.session_id == "s2"]
    assert s2[0].when == to_ms("2024-04-05T18:00:00Z")
    assert s2[0].session_date is None
    assert {t.session_date for t in turns if t.session_id == "s3"} == {to_ms("2024-05-15T09:00Z")}


def test_conversation_errors(tmp_path):
    path = write(
        tmp_path,
        "chat.jsonl",
        [{"session_id": "s1", "date": "2024-03-20"}, {"session_id": "s1", "speaker": "user"}],
    )
    with pytest.raises(ValidationError) as err:
        load_conversation(path)
    assert str(err.value) == "chat.jsonl line 2: text: Field required"
    path = write(tmp_path, "chat.jsonl", [{"session_id": "s9", "speaker": "user", "text": "hi"}])
    with pytest.raises(ValidationError) as err:
        load_conversation(path)
    assert str(err.value) == (
        "chat.jsonl line 1: timestamp: missing (no turn timestamp and no session date)"
    )
    path = write(tmp_path, "chat.jsonl", [{"session_id": "s1", "date": "soon"}])
    with pytest.raises(ValidationError, match=r"^chat\.jsonl line 1: date: not an ISO-8601"):
        load_conversation(path)


def test_turns_without_index_are_numbered_per_session(tmp_path):
    path = write(
        tmp_path,
        "chat.jsonl",
        [
            {"session_id": "a", "speaker": "user", "text": "one", "timestamp": 1710929700},
            {"session_id": "b", "speaker": "user", "text": "two", "timestamp": 1710929700},
            {"session_id": "a", "speaker": "user", "text": "three", "timestamp": 1710929700},
        ],
    )
    assert [(t.session_id, t.turn) for t in load_conversation(path)] == [
        ("a", 0),
        ("b", 0),
        ("a", 1),
    ]


def test_passages_keep_exact_offsets_and_headings():
    text = (FIXTURES / "notes.md").read_text()
    passages = load_text(FIXTURES / "notes.md")
    assert [(p.index, p.heading) for p in passages] == [(0, "Family"), (1, "Work")]
    for p in passages:
        assert text[p.start : p.end] == p.text
    assert passages[0].text == "My sister Alice lives in Lyon. She is allergic to peanuts."


def test_long_paragraphs_are_cut_at_sentence_ends():
    sentence = "I walked the dog along the river this morning. "
    text = "# Diary\n\n" + sentence * 40
    passages = split_passages(text, max_chars=200)
    assert all(len(p.text) <= 200 for p in passages)
    assert all(p.text.endswith("morning.") for p in passages)
    assert [text[p.start : p.end] for p in passages] == [p.text for p in passages]
    assert "".join(p.text for p in passages).count("river") == 40


def test_detect_format(tmp_path):
    assert [
        detect_format(FIXTURES / n)
        for n in ("cards.jsonl", "cards.json", "conversation.jsonl", "notes.md")
    ] == ["cards", "cards", "conversation", "text"]
    plain = tmp_path / "notes"
    plain.write_text("Just some notes.\nMore notes.")
    assert detect_format(plain) == "text"
    odd = write(tmp_path, "odd.jsonl", [{"hello": "world"}])
    with pytest.raises(ValidationError, match=r"^odd\.jsonl line 1: cannot tell"):
        detect_format(odd)
