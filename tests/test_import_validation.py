"""Import checks every record before writing anything: a bad record is a 422 / exit 2
naming its line and field, never a 500 or a traceback, and nothing is half-imported
(issue 19, point 4), with a fuzz of both doors."""

from __future__ import annotations

import io
import json
import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from graphmem import Memory
from graphmem.cli import app
from graphmem.export import export_user
from graphmem.service import create_app

HEADER = {"type": "header", "format": "graphmem-export", "version": 1, "user_id": "src"}


def ndjson(*records: Any) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


#: ``/import`` takes JSON Lines only under a JSON or NDJSON content type.
NDJSON = {"content-type": "application/x-ndjson"}


@pytest.fixture(scope="module")
def client(memory: Memory) -> Iterator[TestClient]:
    with TestClient(create_app(memory), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def export_lines(memory: Memory) -> list[str]:
    """A real export: people, sources, cards, a supersession, a task citing a card."""
    user = f"src-{uuid.uuid4().hex[:8]}"
    paris = memory.remember(
        {
            "user_id": user,
            "fact": "Alice lives in Paris",
            "person": "Alice",
            "relationship": "sister",
            "timestamp": "2023-01-01",
            "source": {"session_id": "s1", "turn": 0, "speaker": "user", "text": "Alice: Paris"},
        }
    )
    memory.remember(
        {
            "user_id": user,
            "fact": "Alice moved to Rome",
            "person": "Alice",
            "timestamp": "2024-01-01",
        }
    )
    memory.consolidate(user, steps=["conflicts"])
    memory.tasks.create(user, "Visit Alice", cites=[paris.id])  # type: ignore[list-item]
    out = io.StringIO()
    export_user(memory, user, out)
    return out.getvalue().splitlines()


@pytest.mark.parametrize(
    ("record", "field"),
    [
        ({"type": "card", "id": "x"}, "line 2.props"),
        ({"type": "person"}, "line 2.key"),
        ({"type": "task"}, "line 2.id"),
        ({"type": "card", "id": "x", "props": {"fact": 3}}, "line 2.props.fact"),
        ({"type": "card", "id": "bad id!", "props": {"fact": "ok"}}, "line 2.id"),
        ({"type": "person", "key": "\x01eve", "props": {}}, "line 2.key"),
        ({"type": "user", "props": {"nested": {"map": 1}}}, "line 2.props.nested"),
        ({"type": "supersedes", "source": "a", "target": "b", "props": {}}, "line 2.source"),
        (
            {"type": "task", "id": "t1", "props": {"subject": "x", "status": "??"}},
            "line 2.props.status",
        ),
    ],
)
def test_a_bad_record_is_a_422_naming_line_and_field(client, record: dict, field: str):
    user = f"dst-{uuid.uuid4().hex[:8]}"
    answer = client.post(f"/v1/users/{user}/import", content=ndjson(HEADER, record), headers=NDJSON)
    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == field
    assert answer.json()["detail"].startswith("line 2")
    assert client.get(f"/v1/users/{user}/cards").json() == []


def test_nothing_is_written_when_a_later_record_is_bad(client, export_lines: list[str]):
    user = f"dst-{uuid.uuid4().hex[:8]}"
    broken = [*export_lines, json.dumps({"type": "task", "id": "t9", "props": {}})]
    answer = client.post(f"/v1/users/{user}/import", content="\n".join(broken), headers=NDJSON)
    assert (answer.status_code, answer.json()["field"]) == (
        422,
        f"line {len(broken)}.props.subject",
    )
    assert client.get(f"/v1/users/{user}/cards", params={"status": "all"}).json() == []
    good = client.post(f"/v1/users/{user}/import", content="\n".join(export_lines), headers=NDJSON)
    assert good.status_code == 200, good.text
    assert good.json()["counts"]["card"] == 2


def test_cli_import_of_a_bad_file_exits_2_naming_the_line(home: Path, tmp_path: Path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(ndjson(HEADER, {"type": "card", "id": "x"}), encoding="utf-8")
    result = CliRunner().invoke(app, ["--home", str(home), "import", str(bad)])
    assert result.exit_code == 2
    assert "line 2" in result.output
    assert "Traceback" not in result.output
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(json.dumps(HEADER).encode() + b"\n\xff\xfe\n")
    result = CliRunner().invoke(app, ["--home", str(home), "import", str(binary)])
    assert (result.exit_code, "line 2: not UTF-8" in result.output) == (2, True)


# -- duplicate ids (issue 31, point 6) --------------------------------------------------
def _twice(export_lines: list[str], kind: str, change: dict[str, Any]) -> tuple[list[str], int]:
    """The export with its first ``kind`` record said again (changed) right after it;
    the 1-based line of the first."""
    at = next(i for i, line in enumerate(export_lines) if json.loads(line)["type"] == kind)
    again = json.loads(export_lines[at])
    again["props"] |= change
    return [*export_lines[: at + 1], json.dumps(again), *export_lines[at + 1 :]], at + 1


@pytest.mark.parametrize(
    "case", [("card", {"fact": "Alice lives in Oslo"}), ("task", {"subject": "Call"})]
)
def test_an_id_twice_refuses_the_whole_file_naming_both_lines(
    client, export_lines, home: Path, tmp_path: Path, case: tuple[str, dict]
):
    kind, change = case
    lines, first = _twice(export_lines, kind, change)
    user = f"dst-{uuid.uuid4().hex[:8]}"
    answer = client.post(f"/v1/users/{user}/import", content="\n".join(lines), headers=NDJSON)
    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == f"line {first + 1}.id"
    assert f"(first at line {first})" in answer.json()["detail"]
    assert client.get(f"/v1/users/{user}/cards", params={"status": "all"}).json() == []
    assert client.get(f"/v1/users/{user}/tasks").json() == []
    twice = tmp_path / "twice.jsonl"
    twice.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["--home", str(home), "import", str(twice), "-u", "u2"])
    assert result.exit_code == 2, result.output
    assert f"line {first + 1}: {kind}" in result.output
    assert f"(first at line {first})" in " ".join(result.output.split())


def test_a_person_twice_is_refused_too(client, export_lines):
    lines, first = _twice(export_lines, "person", {"name": "Alicia"})
    answer = client.post("/v1/users/dst-p/import", content="\n".join(lines), headers=NDJSON)
    assert (answer.status_code, answer.json()["field"]) == (422, f"line {first + 1}.key")


def test_a_card_whose_props_leave_out_id_and_user_imports(client):
    """Was a 500 (KeyError 'id'): the record's id and the importing user are the card's."""
    user = f"dst-{uuid.uuid4().hex[:8]}"
    record = {"type": "card", "id": "c" * 32, "props": {"fact": "Bea plays the cello"}}
    answer = client.post(f"/v1/users/{user}/import", content=ndjson(HEADER, record), headers=NDJSON)
    assert answer.status_code == 200, answer.text
    [card] = client.get(f"/v1/users/{user}/cards").json()
    assert (card["id"], card["user_id"], card["fact"]) == ("c" * 32, user, "Bea plays the cello")


# -- fuzz: mutate a real export, both doors answer 2xx/422 or exit 0/2 -------------------
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
    st.just("\x00"),
    st.just("x" * 30_000),
)


def mutate(lines: list[str], rng: random.Random, junk: Any) -> list[str]:
    lines = list(lines)
    i = rng.randrange(len(lines))
    action = rng.choice(["field", "prop", "drop", "swap", "cut", "dup", "raw"])
    record = json.loads(lines[i])
    if action == "field":
        record[rng.choice([*record, "extra"])] = junk
    elif action == "prop" and isinstance(record.get("props"), dict) and record["props"]:
        record["props"][rng.choice(list(record["props"]))] = junk
    elif action == "drop":
        record.pop(rng.choice(list(record)))
    elif action == "swap":
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return lines
    elif action == "cut":
        lines[i] = lines[i][: rng.randrange(len(lines[i]))]
        return lines
    elif action == "dup":
        return [*lines[: i + 1], lines[i], *lines[i + 1 :]]
    elif action == "raw":
        lines[i] = json.dumps(junk)
        return lines
    lines[i] = json.dumps(record)
    return lines


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32), junk=JUNK)
def test_fuzzed_imports_over_http_never_fail_the_server(client, export_lines, seed, junk):
    lines = mutate(export_lines, random.Random(seed), junk)
    answer = client.post(
        f"/v1/users/fuzz-{seed % 7}/import", content="\n".join(lines), headers=NDJSON
    )
    assert answer.status_code in (200, 422), answer.text
    if answer.status_code == 422:
        assert answer.json()["field"].startswith(("line ", "header", "user_id"))


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32), junk=JUNK)
def test_fuzzed_imports_on_the_command_line_never_crash(
    memory: Memory, export_lines, tmp_path_factory, seed, junk
):
    path = tmp_path_factory.mktemp("fuzz") / "export.jsonl"
    path.write_text("\n".join(mutate(export_lines, random.Random(seed), junk)), encoding="utf-8")
    home = str(memory.home)
    result = CliRunner().invoke(app, ["--home", home, "import", str(path), "-u", "fuzz-cli"])
    assert result.exit_code in (0, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
