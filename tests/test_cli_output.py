"""What the command line shows people: status and why, tables and trees instead of raw
JSON, text from others made safe for the terminal (issue 19, points 3, 6 and the small
ones of 12)."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from graphmem import Memory, __version__
from graphmem.cli import app
from graphmem.cli.render import clean
from graphmem.service import create_app

runner = CliRunner()


def gm(home: Path, *args: str):
    return runner.invoke(app, ["--home", str(home), *args], env={"COLUMNS": "200"})


def test_untrusted_text_is_escaped_and_long_text_cut(home: Path):
    hostile = "I like \u001b[31mred\u001b[0m [bold]tea[/bold] [/] \u202eexe.txt"
    with Memory.open(home) as memory, TestClient(create_app(memory)) as client:
        for fact in (hostile, "long " + "x" * 19_990):
            made = client.post("/v1/users/eve/cards", json={"fact": fact})
            assert made.status_code == 200, made.text

    listed = gm(home, "list", "--user", "eve")
    assert listed.exit_code == 0, listed.output
    assert "\x1b" not in listed.stdout
    assert "\u202e" not in listed.stdout
    assert "\\x1b[31mred\\x1b[0m" in listed.stdout  # shown, escaped
    assert "[bold]tea[/bold]" in listed.stdout  # markup in a fact stays text
    assert "…" in listed.stdout
    assert len(listed.stdout.splitlines()) < 40  # not hundreds of lines for 20k characters

    as_json = json.loads(gm(home, "list", "--user", "eve", "--json").stdout)
    assert hostile in [c["fact"] for c in as_json]  # machines get it all, exactly
    assert "\x1b" not in gm(home, "list", "--user", "eve", "--json").stdout  # escaped JSON


def test_show_and_provenance_say_status_and_why(home: Path):
    with Memory.open(home) as memory:
        memory.remember_many(
            [
                {"user_id": "ada", "fact": "I live in Paris", "timestamp": "2023-01-10"},
                {"user_id": "ada", "fact": "I moved to Berlin", "timestamp": "2024-02-01"},
            ]
        )
        memory.consolidate("ada", steps=["conflicts"], now="2024-06-01")
        paris = next(c for c in memory.cards("ada", status=None) if "Paris" in c.fact)
        berlin = next(c for c in memory.cards("ada", status=None) if "Berlin" in c.fact)
        tea = memory.remember({"user_id": "ada", "fact": "I like green tea"})
        memory.forget("ada", tea.id, reason="the user asked")  # type: ignore[arg-type]
        memory.feedback("ada", berlin.id, "down")  # type: ignore[arg-type]
    assert paris.status.value == "superseded"

    shown = gm(home, "show", paris.id[:8], "--user", "ada")  # type: ignore[index]
    assert shown.exit_code == 0, shown.output
    assert not shown.stdout.lstrip().startswith("{")  # a sheet, not raw JSON
    assert f"superseded by 'I moved to Berlin' ({berlin.id[:8]})" in " ".join(  # type: ignore[index]
        shown.stdout.split()
    )
    forgotten = gm(home, "show", tea.id[:8], "--user", "ada").stdout  # type: ignore[index]
    assert "forgotten: the user asked" in " ".join(forgotten.split())
    flagged = gm(home, "show", berlin.id[:8], "--user", "ada").stdout  # type: ignore[index]
    assert "needs revision: negative feedback" in " ".join(flagged.split())

    tree = gm(home, "provenance", berlin.id[:8], "--user", "ada")  # type: ignore[index]
    assert tree.exit_code == 0, tree.output
    assert "supersedes" in tree.stdout
    assert "I live in Paris" in tree.stdout
    story = json.loads(gm(home, "provenance", berlin.id[:8], "--user", "ada", "--json").stdout)  # type: ignore[index]
    assert [link["id"] for link in story["supersedes"]] == [paris.id]

    recalled = gm(home, "recall", "where do I live", "--user", "ada", "--include-superseded")
    assert "[superseded] I live in Paris" in recalled.stdout
    assert "[needs revision] I moved to Berlin" in recalled.stdout


def test_small_things_people_notice(home: Path):
    unknown = gm(home, "list", "--user", "nobody")
    assert unknown.exit_code == 3
    assert "no memory of user 'nobody'" in unknown.output

    made = gm(home, "tasks", "add", "design the schema", "--user", "ada")
    assert made.exit_code == 0, made.output
    task_id = made.stdout.strip()  # the id alone, as README promises
    assert len(task_id) == 8
    assert task_id.isalnum()
    ready = gm(home, "tasks", "ready", "--user", "ada").stdout
    assert "1 ready task of ada" in ready
    assert "1 ready tasks" not in ready
    gm(home, "remember", "I like tea", "--user", "ada")
    assert "1 card of ada" in gm(home, "list", "--user", "ada").stdout
    sheet = gm(home, "tasks", "show", task_id, "--user", "ada").stdout
    assert "design the schema" in sheet
    assert not sheet.lstrip().startswith("{")

    bad_status = gm(home, "list", "--user", "ada", "--status", "bogus")
    assert bad_status.exit_code == 2


def test_context_says_when_a_budget_is_unusable_or_nothing_bears(home: Path):
    gm(home, "remember", "I am allergic to peanuts", "--user", "ada")
    tiny = gm(home, "context", "dinner", "--user", "ada", "--budget", "5")
    assert tiny.exit_code == 2
    assert "a token_budget of 5 cannot hold a line of memory" in tiny.stderr
    assert tiny.stdout == ""

    found = gm(home, "context", "what am I allergic to?", "--user", "ada")
    assert found.exit_code == 0, found.output
    assert "I am allergic to peanuts" in found.stdout

    unrelated = gm(
        home, "context", "boiling point of mercury", "--user", "ada", "--min-relevance", "0.2"
    )
    assert unrelated.exit_code == 0, unrelated.output
    assert unrelated.stdout == ""  # no empty line for a prompt to carry
    assert "nothing in ada's memory bears on 'boiling point of mercury'" in unrelated.stderr


def test_recall_shows_relevance_and_takes_a_floor(home: Path):
    gm(home, "remember", "I am allergic to peanuts", "--user", "ada")
    shown = gm(home, "recall", "what am I allergic to?", "--user", "ada")
    assert "relevance" in shown.stdout
    found = json.loads(gm(home, "recall", "what am I allergic to?", "-u", "ada", "--json").stdout)
    assert f"{found[0]['relevance']:.2f}" in shown.stdout
    floor = ["--user", "ada", "--min-relevance", "0.2", "--json"]
    assert json.loads(gm(home, "recall", "boiling point of mercury", *floor).stdout) == []
    refused = gm(home, "recall", "allergic", "--user", "ada", "--min-relevance", "2")
    assert refused.exit_code == 2
    assert "min_relevance" in refused.stderr


def test_home_after_the_command_and_a_version(home: Path):
    made = runner.invoke(app, ["remember", "I like tea", "--user", "ada", "--home", str(home)])
    assert made.exit_code == 0, made.output
    listed = runner.invoke(app, ["list", "--user", "ada", f"--home={home}", "--json"])
    assert [c["fact"] for c in json.loads(listed.stdout)] == ["I like tea"]
    tasks = runner.invoke(app, ["tasks", "list", "--user", "ada", "--home", str(home)])
    assert tasks.exit_code == 0, tasks.output  # a subcommand of a subcommand too
    literal = runner.invoke(app, ["--home", str(home), "remember", "-u", "ada", "--", "--home"])
    assert literal.exit_code == 0, literal.output  # after --, a word is text
    assert "--home" in [c.fact for c in _cards(home, "ada")]

    version = runner.invoke(app, ["--version"])
    assert (version.exit_code, version.stdout) == (0, f"graphmem {__version__}\n")


def _cards(home: Path, user: str):
    with Memory.open(home) as memory:
        return memory.cards(user)


def test_clean_escapes_what_a_terminal_would_obey():
    assert clean("a\x1b[2Jb\x07c\x9bd\u200be") == "a\\x1b[2Jb\\x07c\\x9bd\\u200be"
    assert clean("é ü 漢字 🙂") == "é ü 漢字 🙂"


def test_chinese_names_and_facts_line_up_in_tables_and_read_in_the_profile(home: Path):
    from rich.cells import cell_len

    from ingestion.pipeline import ingest_turns

    turns = [
        {
            "session_id": "d1",
            "turn": 0,
            "speaker": "user",
            "text": "我妹妹小雨对花生过敏，周末她生日。",
            "timestamp": "2024-05-01T20:00:00+08:00",
        },
        {
            "session_id": "d1",
            "turn": 1,
            "speaker": "user",
            "text": "我老公在腾讯上班。",
            "timestamp": "2024-05-01T20:01:00+08:00",
        },
    ]
    with Memory.open(home) as memory:
        ingest_turns(memory, turns, "张伟")
    for command in (["people"], ["list"], ["recall", "我妹妹对什么过敏？"]):
        shown = gm(home, *command, "--user", "张伟")
        assert shown.exit_code == 0, shown.output
        assert "小雨" in shown.stdout
        table = [ln for ln in shown.stdout.splitlines() if ln.startswith(("┃", "│", "┏", "└"))]
        assert table, shown.stdout
        assert len({cell_len(ln) for ln in table}) == 1  # width-aware: borders line up
    profile = gm(home, "profile", "--user", "张伟")
    assert profile.exit_code == 0, profile.output
    assert "# Profile of 张伟" in profile.stdout
    assert "**小雨** — 妹妹" in profile.stdout  # in the user's words
