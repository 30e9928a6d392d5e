"""The committed recall evaluation set (bench/data/eval) is well-formed and reproducible.

These checks are what a scorer relies on: every expected ``(session_id, turn)`` is a real
user turn of the same user, updated questions point at the newest statement, and
regenerating from the seed gives the same bytes.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter, defaultdict
from datetime import date, datetime
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EVAL = ROOT / "bench" / "data" / "eval"
GENERATOR = ROOT / "bench" / "data" / "make_eval.py"
FILES = ("conversations.jsonl", "questions.jsonl", "people.jsonl", "README.md")
CATEGORIES = ("single-hop", "relationship", "multi-hop", "temporal", "updated")


def load(name: str) -> list[dict]:
    with (EVAL / name).open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


TURNS = load("conversations.jsonl")
QUESTIONS = load("questions.jsonl")
PEOPLE = load("people.jsonl")
BY_POS = {(t["session_id"], t["turn"]): t for t in TURNS}
SESSIONS: dict[str, list[dict]] = defaultdict(list)
for _t in TURNS:
    SESSIONS[_t["session_id"]].append(_t)


def order(ref: dict) -> tuple[str, int]:
    """Chronological order of a turn within one user (session ids sort by time)."""
    return ref["session_id"], ref["turn"]


def test_turn_records_have_the_documented_shape() -> None:
    assert set(TURNS[0]) == {"user_id", "session_id", "turn", "speaker", "text", "timestamp"}
    for t in TURNS:
        assert t["speaker"] in ("user", "assistant")
        assert t["session_id"].startswith(t["user_id"] + "-s")
        assert t["text"].strip() == t["text"]
        assert t["text"]
        assert t["timestamp"].endswith("Z")
    for turns in SESSIONS.values():
        assert [t["turn"] for t in turns] == list(range(len(turns)))
        stamps = [datetime.fromisoformat(t["timestamp"].replace("Z", "+00:00")) for t in turns]
        assert stamps == sorted(stamps)
        assert 10 <= len(turns) <= 30


def test_users_have_four_to_eight_sessions_spread_over_months() -> None:
    sessions_by_user: dict[str, list[str]] = defaultdict(list)
    for _sid, turns in sorted(SESSIONS.items()):
        sessions_by_user[turns[0]["user_id"]].append(turns[0]["timestamp"][:10])
    assert len(sessions_by_user) >= 12
    for days in sessions_by_user.values():
        assert 4 <= len(days) <= 8
        assert days == sorted(days)
        assert (date.fromisoformat(days[-1]) - date.fromisoformat(days[0])).days >= 60


def test_about_forty_percent_of_turns_are_the_assistant() -> None:
    share = Counter(t["speaker"] for t in TURNS)["assistant"] / len(TURNS)
    assert 0.35 <= share <= 0.45


def test_qids_are_unique_and_fields_documented() -> None:
    assert len({q["qid"] for q in QUESTIONS}) == len(QUESTIONS)
    for q in QUESTIONS:
        required = {"qid", "user_id", "question", "category", "expected", "answer", "asked_at"}
        assert required <= set(q) <= required | {"superseded"}
        assert q["category"] in CATEGORIES
        assert ("superseded" in q) == (q["category"] == "updated")


def test_every_expected_turn_is_a_user_turn_of_that_user() -> None:
    for q in QUESTIONS:
        for ref in q["expected"] + q.get("superseded", []):
            turn = BY_POS[(ref["session_id"], ref["turn"])]
            assert turn["user_id"] == q["user_id"]
            assert turn["speaker"] == "user"


def test_category_counts_meet_the_minimums() -> None:
    counts = Counter(q["category"] for q in QUESTIONS)
    total = len(QUESTIONS)
    assert total >= 220
    assert counts["single-hop"] >= 0.28 * total
    assert counts["relationship"] >= 0.23 * total
    for category in ("multi-hop", "temporal", "updated"):
        assert counts[category] >= 0.13 * total


def test_multi_hop_needs_two_turns_and_updated_points_at_the_newest() -> None:
    for q in QUESTIONS:
        if q["category"] == "multi-hop":
            assert len(q["expected"]) == 2
            assert q["expected"][0] != q["expected"][1]
        if q["category"] == "updated":
            (new,) = q["expected"]
            assert all(order(old) < order(new) for old in q["superseded"])
            assert all(old["session_id"] != new["session_id"] for old in q["superseded"])


def test_relationship_questions_rely_on_an_earlier_introduction() -> None:
    """ "What is my sister allergic to?": the fact turn says Alice (or she), not "sister"."""
    rels = defaultdict(dict)
    for p in PEOPLE:
        if p["of"] is None:
            rels[p["user_id"]][p["relationship"]] = p["name"]
    for q in (q for q in QUESTIONS if q["category"] == "relationship"):
        rel = max((r for r in rels[q["user_id"]] if f"my {r}" in q["question"].lower()), key=len)
        name = rels[q["user_id"]][rel]
        (ref,) = q["expected"]
        evidence = BY_POS[(ref["session_id"], ref["turn"])]["text"]
        assert rel not in evidence.lower()
        assert name in evidence or re.search(r"\b(she|he|her|his|him)\b", evidence, re.I)
        intros = [
            t
            for t in TURNS
            if t["user_id"] == q["user_id"]
            and t["speaker"] == "user"
            and order(t) < order(ref)
            and name in t["text"]
            and rel in t["text"].lower()
        ]
        assert intros, q["qid"]


def test_answers_are_not_given_away_and_dates_are_iso() -> None:
    for q in QUESTIONS:
        assert q["answer"].lower() not in q["question"].lower()
        if q["category"] == "temporal" and q["answer"][:2] == "20":
            day = date.fromisoformat(q["answer"])
            (ref,) = q["expected"]
            said = date.fromisoformat(BY_POS[(ref["session_id"], ref["turn"])]["timestamp"][:10])
            assert abs((day - said).days) <= 45


def test_names_repeat_across_users_with_other_relationships() -> None:
    """Tenant isolation needs the same name under different users."""
    users_by_name: dict[str, set[str]] = defaultdict(set)
    rels_by_name: dict[str, set[str]] = defaultdict(set)
    for p in PEOPLE:
        users_by_name[p["name"]].add(p["user_id"])
        rels_by_name[p["name"]].add(p["relationship"])
    repeated = [n for n, users in users_by_name.items() if len(users) >= 3]
    assert {"Alice", "Tom", "Priya", "Bob"} & set(repeated)
    assert all(len(rels_by_name[n]) >= 2 for n in repeated)


def test_committed_files_are_small() -> None:
    assert sum((EVAL / name).stat().st_size for name in FILES) < 3_000_000


def run_generator(*args: str) -> None:
    subprocess.run(
        [sys.executable, str(GENERATOR), *args], check=True, capture_output=True, timeout=60
    )


def test_regenerating_gives_byte_identical_files(tmp_path: Path) -> None:
    run_generator("--out", str(tmp_path))
    for name in FILES:
        assert (tmp_path / name).read_bytes() == (EVAL / name).read_bytes(), name


@pytest.mark.parametrize("users", [3])
def test_scale_variants_start_with_the_committed_users(tmp_path: Path, users: int) -> None:
    run_generator("--users", str(users), "--out", str(tmp_path))
    small = (tmp_path / "conversations.jsonl").read_text(encoding="utf-8").splitlines()
    wanted = {f"u{i + 1:03d}" for i in range(users)}
    committed = [json.dumps(t, ensure_ascii=False) for t in TURNS if t["user_id"] in wanted]
    assert small == committed
