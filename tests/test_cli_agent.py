"""`graphmem session ...`, `graphmem quota` and `graphmem bridge` through typer's CliRunner."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.store.embedded import EmbeddedServer
from tests.conftest import short_tmpdir

runner = CliRunner()


@pytest.fixture(scope="module")
def cli_home() -> Iterator[Path]:
    path = short_tmpdir()
    yield path
    EmbeddedServer(path).stop()  # the CLI leaves the embedded server up for the next call
    shutil.rmtree(path, ignore_errors=True)


def gm(home: Path, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, ["--home", str(home), *args])
    assert result.exit_code == code, result.output
    return result.output


def test_a_conversation_from_the_command_line(cli_home: Path) -> None:
    said = [
        ("user", "My sister Alice is allergic to peanuts."),
        ("assistant", "Noted."),
        ("user", "She turns 30 in May, we want a dinner party."),
    ]
    for minute, (role, text) in enumerate(said):
        when = f"2024-03-20T10:1{minute}:00Z"
        gm(cli_home, "session", "append", "chat-1", text, "--user", "ada", "--role", role,
           "--timestamp", when)  # fmt: skip
    shown = json.loads(gm(cli_home, "session", "show", "chat-1", "--user", "ada", "--json"))
    assert [(t["role"], t["text"]) for t in shown] == said
    assert [t["timestamp"] for t in shown] == [1710929400000, 1710929460000, 1710929520000]
    assert "Alice" in gm(cli_home, "session", "show", "chat-1", "--user", "ada")
    [found] = json.loads(
        gm(cli_home, "session", "search", "peanut allergy", "--user", "ada", "-k", "1", "--json")
    )
    assert found["turn"]["text"] == said[0][1]
    [info] = json.loads(gm(cli_home, "session", "list", "--user", "ada", "--json"))
    assert (info["session_id"], info["turns"]) == ("chat-1", 3)
    assert "nothing to fold" in gm(cli_home, "session", "compact", "chat-1", "--user", "ada")
    gm(cli_home, "session", "show", "nope", "--user", "ada", code=3)
    gm(cli_home, "session", "delete-turn", shown[1]["id"], "--user", "ada")
    gm(cli_home, "session", "delete-turn", shown[1]["id"], "--user", "ada", code=3)
    assert "cleared 2 turns" in gm(cli_home, "session", "clear", "chat-1", "--user", "ada")
    gm(cli_home, "session", "append", "chat-1", "x", "--user", "ada", "--role", "robot", code=2)


def test_quota_shows_and_sets_limits(cli_home: Path) -> None:
    usage = json.loads(gm(cli_home, "quota", "--user", "bo", "--cards", "2", "--json"))
    assert (usage["limits"]["cards"], usage["cards"]) == (2, 0)
    gm(cli_home, "remember", "fact one", "--user", "bo")
    gm(cli_home, "remember", "fact two", "--user", "bo")
    over = runner.invoke(app, ["--home", str(cli_home), "remember", "fact three", "--user", "bo"])
    assert over.exit_code == 6
    assert "over the cards quota" in over.output
    table = gm(cli_home, "quota", "--user", "bo")
    assert "cards" in table
    assert "unlimited" in table
    reset = json.loads(gm(cli_home, "quota", "--user", "bo", "--reset", "--json"))
    assert reset["limits"]["cards"] is None


def test_the_bridge_refuses_a_public_address(cli_home: Path) -> None:
    result = runner.invoke(app, ["--home", str(cli_home), "bridge", "--host", "0.0.0.0"])
    assert result.exit_code == 2
    assert "loopback" in result.output
