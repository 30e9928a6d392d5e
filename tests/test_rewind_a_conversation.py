"""A new user's story told in plain words, two years apart, then read back as a profile,
asked about at points in time, and rewound card by card.

No structured cards: the conversation goes through ingestion (spaCy), as ``graphmem
ingest`` sends it; the move, the new job, the new manager and the breakup are understood
as they are written. Real store, real embeddings.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphmem import Memory, Status
from graphmem.cli import app
from ingestion import ingest_file
from tests.test_profile import section

SESSIONS = {
    ("then", "2022-03-01"): [
        "Hi, I'm Maya.",
        "I live in Lyon.",
        "I work at Initech as a data analyst.",
        "My manager Tom is great, he plays the cello.",
        "My boyfriend Leo loves climbing.",
        "I prefer window seats on flights.",
    ],
    ("now", "2024-06-10"): [
        "Big news: I moved to Berlin last month.",
        "I started a new job at Acme as a data engineer.",
        "My new manager is Priya.",
        "Leo and I broke up.",
    ],
}
LYON = "I live in Lyon"
BERLIN = "Big news: I moved to Berlin last month"
WHERE = "where do I live?"


@pytest.fixture(scope="module")
def maya(memory: Memory, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, str]]:
    """Maya's two sessions ingested; her user id and card ids by fact."""
    user = f"maya-{uuid.uuid4().hex[:8]}"
    lines = []
    for (session, date), said in SESSIONS.items():
        lines.append({"session_id": session, "date": date})
        lines += [
            {"session_id": session, "turn": i, "speaker": "user", "text": text}
            for i, text in enumerate(said)
        ]
    path = tmp_path_factory.mktemp("maya") / "maya.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    ingest_file(memory, path, user, progress=False, checkpoint_dir=path.parent / "checkpoints")
    return user, {c.fact: c.id for c in memory.cards(user, status=None)}


LEO = "My boyfriend Leo loves climbing"


def test_the_profile_shows_what_is_true_now_and_what_it_replaced(memory: Memory, maya):
    user, ids = maya
    ref = {fact: f"[{card_id[:8]}]" for fact, card_id in ids.items()}
    markdown = memory.profile(user).markdown()
    assert section(markdown, "Who they are") == [
        f"- {BERLIN} (was: {LYON} until 2024-05-10 {ref[LYON]}) {ref[BERLIN]}",
        "- I started a new job at Acme as a data engineer (was: I work at Initech as a data "
        f"analyst until 2024-06-10 {ref['I work at Initech as a data analyst']}) "
        f"{ref['I started a new job at Acme as a data engineer']}",
        f"- Leo and I broke up {ref['Leo and I broke up']}",
        "- I'm Maya " + ref["I'm Maya"],
    ]
    people = section(markdown, "People")
    # Tom's two cards came from one turn: their order (and which one he cites) goes by id.
    tom = people.pop(0)
    assert tom.startswith("- **Tom** — former manager (was: manager) · 2 cards [")
    assert tom[-10:] in (ref["He plays the cello"], ref["My manager Tom is great"])
    assert sorted(people[:2]) == [
        f"  - He plays the cello {ref['He plays the cello']}",
        f"  - My manager Tom is great {ref['My manager Tom is great']}",
    ]
    assert people[2:] == [
        f"- **Leo** — ex-boyfriend (was: boyfriend) · 1 card {ref[LEO]}",
        f"  - {LEO} {ref[LEO]}",
        f"- **Priya** — manager · 1 card {ref['My new manager is Priya']}",
        f"  - My new manager is Priya {ref['My new manager is Priya']}",
    ]


def test_where_she_lived_before_and_after_the_move(memory: Memory, maya):
    user, _ = maya

    def city(as_of: str) -> str:
        return memory.recall(user, WHERE, k=1, as_of=as_of, known_at="now")[0].card.fact

    assert city("2023-01-01") == LYON
    assert city("2024-06-01") == BERLIN
    assert memory.recall(user, WHERE, k=1)[0].card.fact == BERLIN
    # Asked as graphmem knew it in 2023 -- before any of this was said to it: nothing.
    assert memory.recall(user, WHERE, k=1, as_of="2023-01-01") == []


def test_the_profile_as_it_was_true_in_2023(memory: Memory, maya):
    user, _ = maya
    then = memory.profile(user, as_of="2023-01-01", known_at="now")
    assert [line.fact for line in then.identity] == [
        "I live in Lyon",
        "I work at Initech as a data analyst",
        "I'm Maya",
    ]
    assert [(p.name, p.relationship) for p in then.people] == [
        ("Tom", "manager"),
        ("Leo", "boyfriend"),
    ]


def test_the_move_is_in_the_old_cards_history_and_can_be_rewound(memory: Memory, maya):
    user, ids = maya
    created, superseded = memory.history(user, ids[LYON])
    assert (created.change, created.decided_by) == ("create", "spacy/0.1")
    assert (superseded.change, superseded.decided_by) == ("supersede", "rules")
    assert superseded.note.startswith(f"by {ids[BERLIN]}: newer value replaces older")

    back = memory.revert(user, ids[LYON], 1)

    assert (back.fact, back.status, back.valid_to) == (LYON, Status.ACTIVE, None)
    assert [v.change for v in memory.history(user, ids[LYON])] == ["create", "supersede", "revert"]
    assert memory.recall(user, WHERE, k=1)[0].card.fact == LYON
    # Lyon is current again: nothing says it was replaced any more.
    assert memory.provenance(user, ids[LYON]).superseded_by == []
    assert memory.provenance(user, ids[BERLIN]).supersedes == []
    assert f"(was: {LYON}" not in memory.profile(user).markdown()


def test_the_cli_asks_what_was_true_then_by_what_memory_knows_now(home: Path):
    runner = CliRunner()
    gm = ["--home", str(home)]
    for fact, when in (("I live in Paris", "2020-01-10"), ("I moved to Lisbon", "2024-05-01")):
        said = runner.invoke(app, [*gm, "remember", fact, "--user", "ana", "--timestamp", when])
        assert said.exit_code == 0, said.output

    def city(*at: str) -> list[str]:
        said = runner.invoke(app, [*gm, "recall", WHERE, "--user", "ana", "-k", "1", "--json", *at])
        assert said.exit_code == 0, said.output
        return [hit["card"]["fact"] for hit in json.loads(said.output)]

    assert city("--as-of", "2022-06-01", "--known-at", "now") == ["I live in Paris"]
    assert city("--as-of", "2024-06-01", "--known-at", "NOW") == ["I moved to Lisbon"]
    assert city() == ["I moved to Lisbon"]


def test_a_reverted_move_stays_reverted_through_consolidation(memory: Memory, maya):
    """The caller's revert is a decision: consolidation does not supersede Lyon again."""
    user, ids = maya
    if memory.get(user, ids[LYON]).status != Status.ACTIVE:
        memory.revert(user, ids[LYON], 1)
    memory.consolidate(user)
    assert memory.get(user, ids[LYON]).status == Status.ACTIVE
    [kept] = memory.provenance(user, ids[LYON]).conflicts
    assert kept.reason.startswith(f"reverted: {ids[LYON]} stands again")
