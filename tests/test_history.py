"""A card's history: every change recorded by the query that made it, read back, reverted.

Real embedded store, real embeddings. The structural test at the end checks every query
file: whatever writes a card's content or status also archives the state it replaces.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from graphmem import ConflictError, Memory, NotFoundError, Status
from graphmem.cli import app
from graphmem.consolidation import _flag_once
from graphmem.export import export_records, export_user
from graphmem.integrations.tools import UserTools
from graphmem.service import create_app
from graphmem.store import queries


def vector_of(memory: Memory, user: str, card_id: str) -> np.ndarray:
    """The stored vector of a card, read through the public export."""
    for record in export_records(memory, user, with_embeddings=True):
        if record["type"] == "card" and record["id"] == card_id:
            return np.asarray(record["embedding"], dtype=np.float32)
    raise AssertionError(f"no card {card_id}")


def paris(user: str) -> dict:
    return {
        "user_id": user,
        "id": "home-city",
        "fact": "I live in Paris",
        "backstory": "told while planning a visit",
        "timestamp": "2023-01-10",
        "category": "life",
    }


def test_five_changes_are_five_versions_in_order(memory: Memory, user: str):
    card = memory.remember(paris(user))
    card = memory.remember(card.model_copy(update={"fact": "I live in Lyon"}))
    memory.feedback(user, card.id, "down")
    memory.forget(user, card.id, reason="moved away")
    memory.restore(user, card.id)

    history = memory.history(user, card.id)

    assert [(v.version, v.change, v.decided_by) for v in history] == [
        (1, "create", "caller"),
        (2, "update", "caller"),
        (3, "feedback", "caller"),
        (4, "forget", "caller"),
        (5, "restore", "caller"),
    ]
    times = [v.at for v in history]
    assert times == sorted(times)
    assert [v.current for v in history] == [False, False, False, False, True]
    created, updated, rated, forgotten, restored = history
    assert {c.field: c.new for c in created.changes}["fact"] == "I live in Paris"
    assert [(c.field, c.old, c.new) for c in updated.changes] == [
        ("fact", "I live in Paris", "I live in Lyon")
    ]
    assert {c.field for c in rated.changes} == {
        "confidence",
        "last_feedback",
        "needs_revision",
        "reward",
    }
    assert ("status", "active", "forgotten") in [(c.field, c.old, c.new) for c in forgotten.changes]
    assert forgotten.note == "moved away"
    assert ("status", "forgotten", "active") in [(c.field, c.old, c.new) for c in restored.changes]
    assert "forgotten_reason" in {c.field for c in restored.changes}
    assert updated.state["fact"] == "I live in Lyon"
    assert created.state["fact"] == "I live in Paris"


def test_revert_restores_text_vector_and_status(memory: Memory, user: str):
    card = memory.remember(paris(user))
    paris_vector = vector_of(memory, user, card.id)
    card = memory.remember(card.model_copy(update={"fact": "I live in Lyon", "tags": ["home"]}))
    memory.forget(user, card.id)
    assert not np.allclose(vector_of(memory, user, card.id), paris_vector)

    reverted = memory.revert(user, card.id, 1)

    assert (reverted.fact, reverted.status, reverted.tags, reverted.version) == (
        "I live in Paris",
        Status.ACTIVE,
        [],
        4,
    )
    assert reverted.content_hash == memory.history(user, card.id)[0].state["content_hash"]
    assert np.allclose(vector_of(memory, user, card.id), paris_vector, atol=1e-6)
    last = memory.history(user, card.id)[-1]
    assert (last.version, last.change, last.note) == (4, "revert", "to version 1")
    assert ("fact", "I live in Lyon", "I live in Paris") in [
        (c.field, c.old, c.new) for c in last.changes
    ]
    hits = memory.recall(user, "which city do I live in?", k=1)
    assert [h.card.fact for h in hits] == ["I live in Paris"]


def test_revert_is_guarded_like_any_write(memory: Memory, user: str):
    card = memory.remember(paris(user))
    memory.remember(card.model_copy(update={"fact": "I live in Lyon"}))
    with pytest.raises(ConflictError, match="version 2"):
        memory.revert(user, card.id, 1, version=1)  # the caller saw version 1: stale
    with pytest.raises(NotFoundError, match="versions: 1, 2"):
        memory.revert(user, card.id, 7)
    assert memory.get(user, card.id).fact == "I live in Lyon"
    assert memory.revert(user, card.id, 1, version=2).fact == "I live in Paris"


def test_consolidation_records_who_superseded_and_why(memory: Memory, user: str):
    old = memory.remember({"user_id": user, "fact": "I live in Paris", "timestamp": "2023-01-01"})
    new = memory.remember({"user_id": user, "fact": "I moved to Berlin", "timestamp": "2024-05-01"})
    memory.consolidate(user, ("conflicts",))

    _created, superseded = memory.history(user, old.id)

    assert (superseded.change, superseded.decided_by) == ("supersede", "rules")
    assert superseded.note.startswith(f"by {new.id}: ")
    changed = {c.field: (c.old, c.new) for c in superseded.changes}
    assert changed["status"] == ("active", "superseded")
    assert changed["valid_to"] == (None, new.timestamp)


def test_hard_forget_erases_the_text_of_every_version(memory: Memory, user: str):
    card = memory.remember(paris(user))
    card = memory.remember(card.model_copy(update={"fact": "I live in Lyon"}))
    memory.forget(user, card.id, hard=True)

    history = memory.history(user, card.id)

    assert [(v.version, v.change, v.erased) for v in history] == [
        (1, "create", True),
        (2, "update", True),
        (3, "erase", True),
    ]
    assert all(v.state is None and v.changes == [] for v in history)
    out = io.StringIO()
    export_user(memory, user, out)
    assert "Paris" not in out.getvalue()
    assert "Lyon" not in out.getvalue()
    assert sum(json.loads(line)["type"] == "card_version" for line in out.getvalue().splitlines())
    with pytest.raises(NotFoundError, match="erased"):
        memory.revert(user, card.id, 1)


def test_an_unknown_card_has_no_history(memory: Memory, user: str):
    with pytest.raises(NotFoundError):
        memory.history(user, "no-such-card")


def test_a_card_in_two_conflicts_is_flagged_once():
    rows = [
        {"a": "x", "b": "y", "needs_revision": ["x", "y"]},
        {"a": "x", "b": "z", "needs_revision": ["x", "z"]},
    ]
    assert [r["needs_revision"] for r in _flag_once(rows)] == [["x", "y"], ["z"]]


# -- every writer keeps history: a structural check over cypher/ ---------------------------

#: Card properties that are bookkeeping, not content: writing them needs no version.
BOOKKEEPING = {
    "access_count",
    "last_accessed",
    "revision",
    "tenant",
    "last_seen",  # a repeat of the fact: how often and when it was said, not what it says
    "seen_count",
    "strategy_uses",  # how often a strategy was applied (graphmem/strategies.py): use
    "strategy_successes",
    "identity",  # derived from the fact, person and relationship
    "write_outcome",  # upsert_cards' note to itself on a row, cleared in the same query
    "write_id",  # which write created the card (a retried write is the same one)
}
#: Queries that write card content without making a version, and why.
EXEMPT = {
    # Import restores exported states as they were (version, change and all); the
    # archived versions travel beside them as card_version records.
    "import_cards": "restores exported states",
}
_CARD = re.compile(r"\((\w+):Card\b")
_SET = re.compile(
    r"(ON\s+CREATE\s+)?\bSET\b(.*?)(?=\b(?:MATCH|OPTIONAL|MERGE|WITH|RETURN|UNWIND|CREATE|"
    r"DELETE|DETACH|FOREACH|CALL|REMOVE|ON)\b|^\s*\)\s*$|\Z)",
    re.S | re.M,
)


def card_writes(text: str) -> dict[str, list[tuple[int, str, bool]]]:
    """Per card variable: (position, property or '+=', inside ON CREATE) of each write."""
    cards = set(_CARD.findall(text))
    found: dict[str, list[tuple[int, str, bool]]] = {}
    for clause in _SET.finditer(text):
        on_create = clause.group(1) is not None
        # "WHEN c.content_hash = ... THEN": a comparison inside a CASE, not a write
        body = re.sub(r"\bWHEN\b.*?\bTHEN\b", " ", clause.group(2), flags=re.S)
        for var, prop in re.findall(r"\b(\w+)\.(\w+)\s*=(?!=)", body):
            if var in cards:
                found.setdefault(var, []).append((clause.start(), prop, on_create))
        for var in re.findall(r"\b(\w+)\s*\+=", body):
            if var in cards:
                found.setdefault(var, []).append((clause.start(), "+=", on_create))
    return found


def history_problems(name: str, text: str) -> list[str]:
    """Why a query that changes cards would leave a change out of their history."""
    problems = []
    for var in sorted(set(_CARD.findall(text))):
        if re.search(rf"DETACH\s+DELETE\s+{var}\b", text) and "erased_at" not in text:
            problems.append(f"{name}: deletes card {var} without erasing its history")
    for var, writes in card_writes(text).items():
        content = [(pos, prop, oc) for pos, prop, oc in writes if prop not in BOOKKEEPING]
        if not content:
            continue
        if not {"change", "decided_by"} <= {prop for _, prop, _ in content}:
            problems.append(f"{name}: writes card {var} without setting {var}.change/decided_by")
        changes_existing = [pos for pos, _, on_create in content if not on_create]
        if not changes_existing:
            continue  # only a new card's first version
        archive = re.search(
            rf"CREATE\s*\((\w+):CardVersion\)-\[:VERSION_OF\]->\({var}\)\s*"
            rf"SET\s+\1\s*\+=\s*{var}\s*\{{\.\*",
            text,
        )
        if archive is None or archive.start() > min(changes_existing):
            problems.append(f"{name}: changes card {var} without archiving its state first")
    return problems


def test_every_query_that_changes_a_card_records_the_change():
    problems = []
    checked = []
    for name in queries.names():
        for dialect in queries.DIALECTS:
            text = queries.load(name, dialect)
            if name in EXEMPT or (not card_writes(text) and "DETACH DELETE" not in text):
                continue
            checked.append(name)
            problems += history_problems(f"{dialect}/{name}", text)
    assert problems == []
    assert {
        "upsert_cards",
        "update_cards",
        "set_card_status",
        "consolidate_supersede",
        "consolidate_forget",
        "consolidate_conflicts",
        "delete_card",
    } <= set(checked)


@pytest.mark.parametrize(
    ("query", "problem"),
    [
        ("MATCH (c:Card {id: $id}) SET c.fact = $fact RETURN c", "without setting c.change"),
        (
            "MATCH (c:Card {id: $id}) SET c.status = 'forgotten', c.change = 'forget', "
            "c.decided_by = 'x' RETURN c",
            "without archiving",
        ),
        (
            "MATCH (c:Card {id: $id}) SET c.change = 'x', c.decided_by = 'y' "
            "CREATE (v:CardVersion)-[:VERSION_OF]->(c) SET v += c {.*} RETURN c",
            "without archiving",  # archived after the change: the old state is lost
        ),
        ("MATCH (c:Card {id: $id}) DETACH DELETE c", "without erasing"),
    ],
)
def test_the_structural_check_catches_a_writer_that_forgets(query: str, problem: str):
    assert any(problem in p for p in history_problems("example", query))


def test_the_structural_check_passes_bookkeeping_and_new_cards():
    touch = "MATCH (c:Card {id: $id}) SET c.access_count = c.access_count + 1 RETURN c"
    create = (
        "MERGE (c:Card {id: $id}) ON CREATE SET c += $props, c.change = 'create', "
        "c.decided_by = 'caller' RETURN c"
    )
    assert history_problems("touch", touch) == []
    assert history_problems("create", create) == []


# -- the doors: CLI, HTTP, MCP --------------------------------------------------------------


def test_cli_history_and_revert(home: Path):
    runner = CliRunner()

    def gm(*args: str):
        result = runner.invoke(app, ["--home", str(home), *args], env={"COLUMNS": "160"})
        assert result.exit_code == 0, result.output
        return result.output

    made = json.loads(gm("remember", "I live in Paris", "--user", "ada", "--json"))
    memory = Memory.open(home, keep_server=True)
    try:
        card = memory.get("ada", made["id"])
        memory.remember(card.model_copy(update={"fact": "I live in Lyon"}))
    finally:
        memory.close()
    table = gm("history", made["id"], "--user", "ada")
    assert "create" in table
    assert "fact: I live in Paris -> I live in Lyon" in table
    revert = ["revert", made["id"], "--user", "ada", "--to", "1"]
    stale = runner.invoke(app, ["--home", str(home), *revert, "--version", "1"])
    assert stale.exit_code == 4  # conflict: the card is at version 2
    assert "now version 3" in gm(*revert)
    versions = json.loads(gm("history", made["id"], "--user", "ada", "--json"))
    assert [(v["version"], v["change"]) for v in versions] == [
        (1, "create"),
        (2, "update"),
        (3, "revert"),
    ]
    assert versions[-1]["state"]["fact"] == "I live in Paris"


def test_http_history_and_revert(memory: Memory, user: str):
    card = memory.remember(paris(user))
    memory.forget(user, card.id)
    with TestClient(create_app(memory)) as client:
        versions = client.get(f"/v1/users/{user}/cards/{card.id}/history").json()
        assert [(v["version"], v["change"], v["note"]) for v in versions] == [
            (1, "create", None),
            (2, "forget", "asked by the user"),
        ]
        stale = client.post(
            f"/v1/users/{user}/cards/{card.id}/revert", json={"to_version": 1, "version": 1}
        )
        assert stale.status_code == 409
        back = client.post(f"/v1/users/{user}/cards/{card.id}/revert", json={"to_version": 1})
        assert (back.status_code, back.json()["status"], back.json()["version"]) == (
            200,
            "active",
            3,
        )
        missing = client.get(f"/v1/users/{user}/cards/nope/history")
        assert missing.status_code == 404


def test_the_history_tool_shows_what_changed(memory: Memory, user: str):
    card = memory.remember(paris(user))
    memory.remember(card.model_copy(update={"fact": "I live in Lyon"}))
    versions = UserTools(memory, user).history(card.id)
    assert [(v["version"], v["change"], v["fact"]) for v in versions] == [
        (1, "create", "I live in Paris"),
        (2, "update", "I live in Lyon"),
    ]
    assert versions[1]["changed"] == {"fact": {"old": "I live in Paris", "new": "I live in Lyon"}}


def test_the_history_table_shows_times_as_times():
    from graphmem.cli.history import describe
    from graphmem.history import CardVersion, FieldChange

    superseded = CardVersion(
        card_id="c",
        version=2,
        change="supersede",
        changes=[FieldChange(field="valid_to", old=None, new=1714521600000)],
    )
    assert describe(superseded) == "valid_to: - -> 2024-05-01 00:00:00"
