"""Ids people can type: a unique prefix of 6+ characters stands for a card id wherever a
card id is taken, like git's short hashes (issue 19, point 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from graphmem import Memory, NotFoundError, ValidationError
from graphmem.cli import app
from graphmem.mcp_server import build_server
from graphmem.service import create_app
from tests.test_mcp import call


def test_a_unique_prefix_stands_for_the_card_everywhere_in_python(memory: Memory, user: str):
    card = memory.remember({"user_id": user, "fact": "Alice is allergic to peanuts"})
    short = card.id[:8]  # type: ignore[index]

    assert memory.get(user, short).id == card.id
    assert memory.resolve(user, card.id[:6]) == card.id  # type: ignore[index]
    assert memory.provenance(user, short).card.id == card.id
    assert memory.feedback(user, short, "up").id == card.id
    assert memory.forget(user, short) == card.id
    assert memory.restore(user, short).id == card.id
    assert [v.version for v in memory.history(user, short)][-1] == memory.get(user, short).version
    task = memory.tasks.create(user, "Plan dinner", cites=[short])
    assert task.cites == [card.id]
    hits = memory.recall(user, "peanuts", card_ids=[short])
    assert [h.card.id for h in hits] == [card.id]


def test_short_and_unknown_prefixes_are_not_found(memory: Memory, user: str):
    card = memory.remember({"user_id": user, "fact": "I collect stamps"})
    with pytest.raises(NotFoundError):
        memory.get(user, card.id[:5])  # type: ignore[index]
    with pytest.raises(NotFoundError):
        memory.get(user, "ffffffffffff")
    with pytest.raises(NotFoundError):  # another user's card, by prefix
        memory.get(f"{user}-other", card.id[:8])  # type: ignore[index]


def test_an_ambiguous_prefix_lists_the_candidates(memory: Memory, user: str):
    for n in (1, 2):
        memory.remember({"user_id": user, "id": f"trip-plan-{n}", "fact": f"Trip plan {n}"})
    with pytest.raises(ValidationError) as caught:
        memory.get(user, "trip-plan")
    message = str(caught.value)
    assert caught.value.field == "card_id"
    assert "ambiguous" in message
    assert "trip-plan-1 (active): Trip plan 1" in message
    assert "trip-plan-2 (active): Trip plan 2" in message
    assert memory.get(user, "trip-plan-2").fact == "Trip plan 2"  # an exact id wins


def test_cli_http_and_mcp_take_the_prefix_the_table_shows(memory: Memory, user: str, home: Path):
    card = memory.remember({"user_id": user, "fact": "Bob prefers morning meetings"})
    shown = card.id[:12]  # type: ignore[index]

    with TestClient(create_app(memory)) as client:
        got = client.get(f"/v1/users/{user}/cards/{shown}")
        assert (got.status_code, got.json()["id"]) == (200, card.id)
        story = client.get(f"/v1/users/{user}/cards/{shown}/provenance").json()
        assert story["card"]["id"] == card.id

    (traced,) = call(build_server(memory, user), [("provenance", {"card_id": shown})])
    assert traced.structured_content["card"]["id"] == card.id

    runner = CliRunner()
    gm = ["--home", str(home)]
    made = json.loads(
        runner.invoke(app, [*gm, "remember", "I like tea", "-u", "ada", "--json"]).stdout
    )
    listed = runner.invoke(app, [*gm, "list", "-u", "ada"]).stdout
    assert made["id"][:12] in listed
    shown_cli = runner.invoke(app, [*gm, "show", made["id"][:12], "-u", "ada", "--json"])
    assert (shown_cli.exit_code, json.loads(shown_cli.stdout)["id"]) == (0, made["id"])
    forgot = runner.invoke(app, [*gm, "forget", made["id"][:8], "-u", "ada"])
    assert (forgot.exit_code, forgot.stdout.strip()) == (0, f"forgot {made['id']}")
