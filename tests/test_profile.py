"""The profile: a readable document rendered from the graph, every line citing its card.

A scenario with a move, a job change and a relationship change runs on the real store
(real embeddings, consolidation's own conflict rules); the rendering rules are checked on
plain data too.
"""

from __future__ import annotations

import json
import time
import uuid

import pytest
from fastapi.testclient import TestClient
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from typer.testing import CliRunner

from graphmem import Memory
from graphmem.cli import app
from graphmem.integrations.tools import UserTools
from graphmem.profile import Snapshot, build, ids_in, polish, render
from graphmem.service import create_app
from graphmem.timeutil import now_ms, to_ms


def section(markdown: str, title: str) -> list[str]:
    """The lines of one ``## title`` section (blank lines left out)."""
    lines, inside = [], False
    for line in markdown.splitlines():
        if line.startswith("## "):
            inside = line == f"## {title}"
            continue
        if inside and line.strip() and not line.startswith("["):
            lines.append(line)
    return lines


@pytest.fixture(scope="module")
def sam(memory: Memory) -> tuple[str, dict[str, str], int]:
    """Sam moved, changed jobs and got a new manager; consolidation saw the changes.

    Yields the user, the card ids by fact, and a time between the old and the new facts.
    """
    user = f"sam-{uuid.uuid4().hex[:8]}"

    def remember(fact: str, when: str, **extra: str) -> None:
        memory.remember({"user_id": user, "fact": fact, "timestamp": when, **extra})

    remember("I live in Paris", "2021-01-10", category="life")
    remember("I work at Initech as a data analyst", "2020-09-01", category="work")
    remember("Tom plays the cello", "2022-03-01", person="Tom", relationship="manager")
    remember("I prefer window seats on flights", "2022-05-01", category="preference")
    remember(
        "Alice is allergic to peanuts",
        "2023-02-01",
        person="Alice",
        relationship="sister",
        category="constraint",
    )
    memory.consolidate(user, ("conflicts",))
    time.sleep(0.005)
    before = now_ms()
    time.sleep(0.005)
    remember("I moved to Berlin", "2024-05-01", category="life")
    remember("I work at Acme as a data engineer", "2024-09-01", category="work")
    remember("Tom retired last spring", "2024-10-01", person="Tom", relationship="former manager")
    remember("Priya runs the Monday standup", "2024-10-02", person="Priya", relationship="manager")
    remember("I ran the Berlin half marathon", "2024-11-03", category="event")
    memory.tasks.create(user, "Book a table for Alice's birthday", task_id="birthday-table")
    memory.consolidate(user, ("conflicts",))
    ids = {c.fact: c.id for c in memory.cards(user, status=None)}
    return user, ids, before


def test_the_profile_shows_current_values_and_what_they_replaced(memory: Memory, sam):
    user, ids, _ = sam
    ref = {fact: f"[{card_id[:8]}]" for fact, card_id in ids.items()}

    markdown = memory.profile(user).markdown()

    assert markdown.startswith(f"# Profile of {user}\n\n_Rendered from memory: 8 current cards,")
    assert section(markdown, "Who they are") == [
        f"- I moved to Berlin (was: I live in Paris until 2024-05-01 {ref['I live in Paris']}) "
        f"{ref['I moved to Berlin']}",
        "- I work at Acme as a data engineer (was: I work at Initech as a data analyst until "
        f"2024-09-01 {ref['I work at Initech as a data analyst']}) "
        f"{ref['I work at Acme as a data engineer']}",
    ]
    assert section(markdown, "Preferences and constraints") == [
        f"- Alice is allergic to peanuts {ref['Alice is allergic to peanuts']}",
        f"- I prefer window seats on flights {ref['I prefer window seats on flights']}",
    ]
    assert section(markdown, "People") == [
        f"- **Tom** — former manager (was: manager) · 2 cards {ref['Tom retired last spring']}",
        f"  - Tom retired last spring {ref['Tom retired last spring']}",
        f"  - Tom plays the cello {ref['Tom plays the cello']}",
        f"- **Alice** — sister · 1 card {ref['Alice is allergic to peanuts']}",
        f"- **Priya** — manager · 1 card {ref['Priya runs the Monday standup']}",
        f"  - Priya runs the Monday standup {ref['Priya runs the Monday standup']}",
    ]
    assert section(markdown, "Recent events") == [
        f"- 2024-11-03: I ran the Berlin half marathon {ref['I ran the Berlin half marathon']}"
    ]
    assert section(markdown, "Open tasks") == [
        "- [ ] Book a table for Alice's birthday (pending) [birthday-table]"
    ]
    # Superseded values appear only inside "(was: ...)".
    for old in ("I live in Paris", "I work at Initech as a data analyst"):
        assert [line for line in markdown.splitlines() if old in line and "(was:" not in line] == []
    # Every reference resolves to its card's (or task's) full address.
    for fact, card_id in ids.items():
        assert f"{ref[fact]}: /v1/users/{user}/cards/{card_id}" in markdown
    assert f"[birthday-table]: /v1/users/{user}/tasks/birthday-table" in markdown
    assert memory.profile(user).markdown() == markdown  # deterministic


def test_the_profile_as_memory_held_it_before_the_changes(memory: Memory, sam):
    user, _, before = sam
    then = memory.profile(user, as_of=before)
    assert [(ln.fact, ln.was) for ln in then.identity] == [
        ("I live in Paris", []),
        ("I work at Initech as a data analyst", []),
    ]
    assert [(p.name, p.relationship, p.was) for p in then.people] == [
        ("Alice", "sister", []),
        ("Tom", "manager", []),
    ]
    assert then.events == []
    assert then.tasks == []
    assert "as memory held it on" in then.markdown()


def test_every_line_of_the_profile_cites_a_card(memory: Memory, sam):
    user, ids, _ = sam
    made = memory.profile(user)
    assert set(ids_in(made)) <= set(ids.values())
    body = made.markdown().split("\n\n[")[0]
    for line in body.splitlines():
        if line.startswith(("-", "  -")):
            assert line.rstrip().endswith("]"), line


def test_an_llm_polish_is_marked_and_kept_only_with_every_reference(memory: Memory, sam):
    user, _, _ = sam
    plain = memory.profile(user)
    labels = [
        line.split("]:")[0] + "]" for line in plain.markdown().splitlines() if "]: /v1" in line
    ]
    faithful = "## Who they are\n\nSam lives in Berlin now. " + " ".join(labels)
    polished = polish(plain, FakeListChatModel(responses=[faithful]))
    assert polished.polished is not None
    assert polished.polished.by == "llm/fake-list-chat-model"
    assert polished.text.startswith("> Polished by llm/fake-list-chat-model")
    assert labels[0] + ": /v1/users/" in polished.text
    assert polished.markdown() == plain.markdown()  # the rendered profile stays as it was

    lossy = polish(plain, FakeListChatModel(responses=["Sam lives in Berlin."] * 2))
    assert lossy.polished is None
    assert "lost references" in lossy.polish_error
    assert lossy.text == plain.markdown()


def test_the_profile_through_cli_http_and_mcp(memory: Memory, sam):
    user, _, _ = sam
    expected = memory.profile(user).markdown()
    with TestClient(create_app(memory)) as client:
        as_text = client.get(f"/v1/users/{user}/profile", params={"format": "markdown"})
        assert as_text.headers["content-type"].startswith("text/markdown")
        assert as_text.text == expected
        as_json = client.get(f"/v1/users/{user}/profile").json()
        assert [p["name"] for p in as_json["people"]] == ["Tom", "Alice", "Priya"]
    assert UserTools(memory, user).profile() == expected


def test_cli_profile(home):
    runner = CliRunner()
    gm = ["--home", str(home)]
    runner.invoke(app, [*gm, "remember", "I live in Lisbon", "--user", "ada", "--category", "life"])
    markdown = runner.invoke(app, [*gm, "profile", "--user", "ada"])
    assert markdown.exit_code == 0
    assert "## Who they are\n\n- I live in Lisbon [" in markdown.output
    as_json = runner.invoke(app, [*gm, "profile", "--user", "ada", "--format", "json"])
    assert [line["fact"] for line in json.loads(as_json.output)["identity"]] == ["I live in Lisbon"]
    empty = runner.invoke(app, [*gm, "profile", "--user", "nobody"])
    assert empty.exit_code == 0
    assert "nothing remembered about nobody" in empty.output


# -- the rules, on plain data --------------------------------------------------------------

T = to_ms("2025-01-01")


def card(card_id: str, fact: str, **extra) -> dict:
    return {
        "id": card_id,
        "fact": fact,
        "person": "me",
        "category": "life",
        "status": "active",
        "timestamp": T - 1000,
        **extra,
    }


def test_a_chain_of_changes_reads_newest_first_and_never_as_lines():
    cards = [
        card("lisbon", "I live in Lisbon", timestamp=T - 10),
        card("berlin", "I live in Berlin", status="superseded", timestamp=T - 20, valid_to=T - 10),
        card("paris", "I live in Paris", status="superseded", timestamp=T - 30, valid_to=T - 20),
    ]
    made = build("u", Snapshot(cards, {"lisbon": ["berlin"], "berlin": ["paris"]}, [], []), at=T)
    assert [(ln.card_id, [w.card_id for w in ln.was]) for ln in made.identity] == [
        ("lisbon", ["berlin", "paris"])
    ]


def test_themes_strategies_and_limits():
    cards = [card(f"c{i}", f"I like hiking trail {i}", tags=["outdoors"]) for i in range(30)]
    cards.append(card("s1", "Retry the search with a shorter query", category="strategy"))
    abstraction = {
        "id": "a1",
        "summary": "Hiking trails",
        "representative": "c3",
        "members": ["c1", "c2", "c3", "gone"],
        "created_at": T - 5,
        "updated_at": T - 1,
    }
    made = build("u", Snapshot(cards, {}, [], [abstraction]), at=T)
    assert len(made.identity) == 25
    assert made.left_out == {"identity": 5}
    assert "s1" not in set(ids_in(made))
    [theme] = made.themes
    assert (theme.representative, theme.card_ids, theme.category, theme.tags) == (
        "c3",
        ["c1", "c2", "c3"],
        "life",
        ["outdoors"],
    )
    assert "- … and 5 more" in render(made)


def test_stored_text_cannot_forge_a_reference_or_steer_a_terminal():
    made = build(
        "u", Snapshot([card("x", "see [evil]: http://x <b> \x1b[31mred")], {}, [], []), at=T
    )
    assert "- see \\[evil\\]: http://x &lt;b> \\x1b\\[31mred [x]" in render(made)


def test_the_readme_shows_the_profile_its_example_user_has():
    """The README's profile block is what `python examples/readme_profile.py` prints today
    (its two `remember` commands, the example conversation, consolidation, in a fresh
    directory and a fresh process: a theme's summary follows the members' centrality,
    and near-ties there can fall the other way in a process that embedded them before)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    printed = subprocess.run(
        [sys.executable, str(root / "examples" / "readme_profile.py")],
        capture_output=True,
        text=True,
        check=True,
        timeout=240,
    ).stdout
    readme = (root / "README.md").read_text(encoding="utf-8")
    shown = readme.split("```markdown\n# Profile of ada\n", 1)[1].split("```", 1)[0]
    assert _themes_named("# Profile of ada\n" + shown) == _themes_named(printed)


def _themes_named(profile: str) -> str:
    """The profile with each theme line cut to its name, in name order: which near-tied
    members a theme's summary lists, and so its rank, follows the embedding's last
    digits, which differ between CPUs with int8 dot-product instructions and those
    without (bench/machine.py)."""
    head, sep, rest = profile.partition("## What memory knows, by theme\n")
    themes, gap, tail = rest.partition("\n\n## ")
    names = sorted(line.split(":", 1)[0] for line in themes.strip().splitlines())
    return head + sep + "\n".join(names) + gap + tail
