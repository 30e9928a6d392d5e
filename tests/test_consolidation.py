"""Consolidation in the store: conflicts, forgetting, abstraction and feedback, end to end.

Real embedded store, real embeddings; every test writes under a user of its own.
"""

from __future__ import annotations

import json

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from typer.testing import CliRunner

from graphmem import ConflictError, NotFoundError, Status, ValidationError
from graphmem.cli import app
from graphmem.consolidation import abstractions, decisions, footprint
from graphmem.timeutil import to_ms

NOW = to_ms("2025-06-01T00:00:00Z")

HOBBIES = [
    "I enjoy hiking in the mountains",
    "I love rock climbing",
    "I go trail running on weekends",
    "I like camping outdoors in the mountains",
    "I enjoy mountain biking",
]
FOOD = [
    "I love Italian food, especially pasta",
    "My favourite dish is pizza",
    "I enjoy cooking Thai curry",
    "I like spicy Indian food",
]


def remember(memory, user, *cards):
    """Store cards given as (fact, timestamp[, extra fields]) and return them by fact."""
    rows = []
    for fact, when, *extra in cards:
        rows.append(
            {"user_id": user, "fact": fact, "timestamp": when, **(extra[0] if extra else {})}
        )
    memory.remember_many(rows)
    return {c.fact: c for c in memory.cards(user, status=None)}


def remember_clusters(memory, user):
    facts = HOBBIES + FOOD
    return remember(
        memory, user, *[(f, f"2025-05-{i + 1:02d}T10:00:00Z") for i, f in enumerate(facts)]
    )


def written_before_claims(memory, user):
    """Make the user's cards look as a graphmem from before write-time change detection
    left them: no claim key, so a new card cannot find them when it is written."""
    memory._store.execute(
        "MATCH (c:Card {user_id: $user_id}) SET c.claim = null", {"user_id": user}, write=True
    )


def busy(memory, user, days: int, start: str = "2020-01-01T09:00:00Z"):
    """A user active on ``days`` consecutive days (one unremarkable card a day): the clock
    forgetting runs on."""
    first = to_ms(start)
    memory.remember_many(
        [
            {
                "user_id": user,
                "fact": f"Logged errand {i} in the planner",
                "timestamp": first + i * 86_400_000,
            }
            for i in range(days)
        ]
    )


# -- conflicts ---------------------------------------------------------------------------


def test_a_move_supersedes_the_old_city_in_the_same_write(memory, user):
    result = memory.remember_many(
        [
            {"user_id": user, "fact": "I live in Paris", "timestamp": "2023-01-10T10:00:00Z"},
            {"user_id": user, "fact": "I moved to Berlin", "timestamp": "2024-02-01T10:00:00Z"},
        ]
    )
    cards = {c.fact: c for c in memory.cards(user, status=None)}
    paris, berlin = cards["I live in Paris"], cards["I moved to Berlin"]

    assert (result.created, result.superseded, result.conflicts) == (2, 1, 0)
    assert (paris.status, paris.valid_to) == (Status.SUPERSEDED, berlin.timestamp)
    assert berlin.status == Status.ACTIVE
    assert [x.id for x in memory.provenance(user, paris.id).superseded_by] == [berlin.id]
    assert [x.id for x in memory.provenance(user, berlin.id).supersedes] == [paris.id]
    [edge] = decisions(memory._store, user)
    assert (edge["type"], edge["from_card"], edge["to_card"], edge["decided_by"]) == (
        "SUPERSEDES",
        berlin.id,
        paris.id,
        "rules",
    )
    assert edge["reason"].startswith("newer value replaces older: location of me: 'paris'")
    # Consolidation finds nothing left to decide.
    assert memory.consolidate(user, steps=["conflicts"], now=NOW).conflicts == []

    everything = {
        h.card.id for h in memory.recall(user, "where do I live", include_superseded=True)
    }
    current = {h.card.id for h in memory.recall(user, "where do I live")}
    assert everything == {paris.id, berlin.id}
    assert current == {berlin.id}


def test_consolidation_resolves_cards_stored_before_write_time_detection(memory, user):
    paris = remember(memory, user, ("I live in Paris", "2023-01-10T10:00:00Z"))["I live in Paris"]
    written_before_claims(memory, user)
    berlin = remember(memory, user, ("I moved to Berlin", "2024-02-01T10:00:00Z"))[
        "I moved to Berlin"
    ]
    assert memory.get(user, paris.id).status == Status.ACTIVE  # the write could not see it

    report = memory.consolidate(user, steps=["conflicts"], now=NOW)

    assert [
        (c.kind, c.from_card, c.to_card, c.attribute, c.decided_by, c.applied)
        for c in report.conflicts
    ] == [("supersede", berlin.id, paris.id, "location", "rules", True)]
    assert (report.conflicts_found, report.conflicts_resolved) == (1, 1)
    old = memory.get(user, paris.id)
    assert (old.status, old.valid_to) == (Status.SUPERSEDED, berlin.timestamp)
    [edge] = decisions(memory._store, user)
    assert (edge["decided_by"], edge["decided_at"]) == ("rules", NOW)


def test_a_later_move_chains_at_write_time_after_a_consolidation(memory, user):
    remember_clusters(memory, user)
    cards = remember(memory, user, ("I live in Paris", "2023-01-10T10:00:00Z"))
    written_before_claims(memory, user)
    cards |= remember(memory, user, ("I moved to Berlin", "2024-02-01T10:00:00Z"))
    memory.consolidate(user, now=NOW)
    rome = remember(memory, user, ("I moved to Rome", "2025-05-01T10:00:00Z"))["I moved to Rome"]

    report = memory.consolidate(user, now=NOW)

    assert (report.mode, report.new_cards, report.conflicts) == ("incremental", 1, [])
    berlin = cards["I moved to Berlin"]
    story = memory.provenance(user, berlin.id)
    assert [x.id for x in story.supersedes] == [cards["I live in Paris"].id]
    assert [x.id for x in story.superseded_by] == [rome.id]


def test_an_unknown_user_is_consolidated_without_writing(memory, user):
    report = memory.consolidate(user)

    assert report.summary()["cards"] == 0
    assert footprint(memory._store, user) == {"edges": 0, "versions": 0}


def test_a_same_time_contradiction_is_flagged_not_resolved(memory, user):
    result = memory.remember_many(
        [
            {
                "user_id": user,
                "fact": "Alice likes sushi",
                "timestamp": "2024-03-01T10:00:00Z",
                "person": "Alice",
            },
            {
                "user_id": user,
                "fact": "Alice hates sushi",
                "timestamp": "2024-03-01T10:20:00Z",
                "person": "Alice",
            },
        ]
    )
    cards = {c.fact: c for c in memory.cards(user)}
    likes, hates = cards["Alice likes sushi"], cards["Alice hates sushi"]

    assert (result.superseded, result.conflicts) == (0, 1)
    for card in (likes, hates):
        assert (card.status, card.needs_revision, card.version) == (Status.ACTIVE, True, 2)
    [conflict] = memory.provenance(user, likes.id).conflicts
    assert conflict.id == hates.id
    assert conflict.reason.startswith("contradiction at the same time (20 min apart)")
    # Recorded once: consolidation finds nothing new and writes no second edge.
    assert memory.consolidate(user, steps=["conflicts"], now=NOW).conflicts == []
    assert [d["type"] for d in decisions(memory._store, user)] == ["CONFLICTS_WITH"]


def test_a_more_confident_older_card_stands(memory, user):
    cards = remember(
        memory,
        user,
        ("I work at Acme", "2023-01-01T10:00:00Z", {"confidence": 0.95}),
        ("I work at Globex", "2024-01-01T10:00:00Z", {"confidence": 0.5}),
    )
    acme, globex = cards["I work at Acme"], cards["I work at Globex"]

    assert (acme.status, acme.needs_revision) == (Status.ACTIVE, False)
    assert (globex.status, globex.needs_revision) == (Status.ACTIVE, True)
    [edge] = decisions(memory._store, user)
    assert (edge["type"], edge["from_card"], edge["to_card"]) == (
        "CONFLICTS_WITH",
        globex.id,
        acme.id,
    )
    assert edge["reason"].startswith("newer card is less confident (0.50 vs 0.95)")


def test_an_llm_adjudicates_what_the_rules_cannot_read(memory, user):
    cards = remember(
        memory,
        user,
        ("Alice's cat is named Tom", "2023-01-01T10:00:00Z", {"person": "Alice"}),
        ("Alice's cat is named Max", "2024-01-01T10:00:00Z", {"person": "Alice"}),
    )
    llm = FakeListChatModel(
        responses=['{"verdict": "update", "current": "B", "reason": "she renamed the cat"}']
    )

    [decision] = memory.consolidate(user, steps=["conflicts"], llm=llm, now=NOW).conflicts

    assert (decision.kind, decision.from_card, decision.to_card, decision.decided_by) == (
        "supersede",
        cards["Alice's cat is named Max"].id,
        cards["Alice's cat is named Tom"].id,
        "llm/fake-list-chat-model",
    )
    assert "she renamed the cat" in decision.reason
    assert decisions(memory._store, user)[0]["decided_by"] == "llm/fake-list-chat-model"


# -- abstraction -------------------------------------------------------------------------


def test_clusters_become_abstractions_that_are_stable_across_runs(memory, user):
    cards = remember_clusters(memory, user)
    ids = {f: c.id for f, c in cards.items()}

    first = memory.consolidate(user, steps=["abstraction"])

    assert (first.mode, first.clusters, first.count("created")) == ("full", 2, 2)
    stored = abstractions(memory._store, user)
    assert sorted(sorted(a["members"]) for a in stored) == sorted(
        [sorted(ids[f] for f in HOBBIES), sorted(ids[f] for f in FOOD)]
    )
    for a in stored:
        assert a["representative"] in a["members"]
        assert a["size"] == len(a["members"])
        assert a["summary"].endswith(f"({a['size']} memories)")
    hobby = next(a for a in stored if ids[HOBBIES[0]] in a["members"])
    assert [x.id for x in memory.provenance(user, ids[HOBBIES[0]]).abstractions] == [hobby["id"]]

    again = memory.consolidate(user, steps=["abstraction"], recluster=True)
    incremental = memory.consolidate(user, steps=["abstraction"])

    assert [(a.id, a.action) for a in again.abstractions] == [
        (a["id"], "unchanged") for a in stored
    ]
    assert incremental.mode == "incremental"
    assert [(a.id, a.action) for a in incremental.abstractions] == [
        (a["id"], "unchanged") for a in stored
    ]
    assert abstractions(memory._store, user) == stored


#: Their own texts: a hard forget drops its card's text from the embedder's cache, and
#: other tests' clusters would then embed those texts anew.
GARDEN = [
    "I grow tomatoes in my garden",
    "I love planting roses in the garden",
    "I spend Sundays weeding the vegetable garden",
    "I compost kitchen scraps for the garden",
]


def test_a_hard_forget_leaves_no_summary_quoting_the_erased_card(memory, user):
    cards = remember(
        memory, user, *[(f, f"2025-05-{i + 1:02d}T10:00:00Z") for i, f in enumerate(GARDEN + FOOD)]
    )
    memory.consolidate(user, steps=["abstraction"])
    [garden] = [a for a in abstractions(memory._store, user) if cards[GARDEN[0]].id in a["members"]]
    members = set(garden["members"])
    erased = cards[GARDEN[0]]
    assert erased.fact.removeprefix("I ") in garden["summary"]

    memory.forget(user, erased.id, hard=True)

    [after] = [a for a in abstractions(memory._store, user) if a["id"] == garden["id"]]
    assert erased.fact.removeprefix("I ") not in after["summary"]
    assert set(after["members"]) == members - {erased.id}
    assert after["representative"] in after["members"]
    assert after["summary"].endswith(f"({len(members) - 1} memories)")


def test_recall_reaches_a_hits_abstraction_siblings(memory, user):
    cards = remember_clusters(memory, user)
    memory.consolidate(user, steps=["abstraction"])
    [hobby] = [a for a in abstractions(memory._store, user) if cards[HOBBIES[0]].id in a["members"]]

    # Full text alone finds only the rock-climbing card; its abstraction brings the rest.
    hits = memory.recall(user, "rock climbing", k=10, channels=("fulltext", "graph"))

    assert hits[0].card.fact == "I love rock climbing"
    siblings = [h for h in hits if h.found_by == ["abstraction"]]
    assert {h.card.fact for h in siblings} == set(HOBBIES) - {"I love rock climbing"}
    assert all(h.paths[0].endswith(f"abstraction {hobby['id'][:8]}") for h in siblings)
    assert all(h.score < hits[0].score for h in siblings)


def test_new_cards_join_the_existing_abstraction_instead_of_duplicating_it(memory, user):
    remember_clusters(memory, user)
    memory.consolidate(user, steps=["abstraction"])
    before = {a["id"]: a for a in abstractions(memory._store, user)}
    added = remember(
        memory, user, ("I love hiking and climbing in the mountains", "2025-05-20T10:00:00Z")
    )
    new_id = added["I love hiking and climbing in the mountains"].id

    report = memory.consolidate(user, steps=["abstraction"])

    assert report.mode == "incremental"
    [updated] = [a for a in report.abstractions if a.action == "updated"]
    assert updated.added == [new_id]
    after = {a["id"]: a for a in abstractions(memory._store, user)}
    assert set(after) == set(before)
    assert after[updated.id]["members"] == sorted(before[updated.id]["members"] + [new_id])
    assert after[updated.id]["size"] == before[updated.id]["size"] + 1

    rebuilt = memory.consolidate(user, steps=["abstraction"], recluster=True)
    assert rebuilt.count("created") == 0
    assert {a["id"] for a in abstractions(memory._store, user)} == set(before)


# -- forgetting --------------------------------------------------------------------------


def test_a_dormant_user_loses_nothing_however_old_the_memories(memory, user):
    remember(
        memory,
        user,
        ("The office printer jammed once", "2019-01-08T10:00:00Z", {"importance": 0.1}),
        ("I live in Lyon", "2019-01-08T10:01:00Z"),
        ("Please keep your answers short", "2019-01-08T10:02:00Z", {"category": "preference"}),
    )
    years_later = to_ms("2029-01-01T00:00:00Z")

    assert memory.consolidate(user, now=years_later).forgotten == []
    assert memory.count(user) == {"active": 3}


def test_trivial_cards_fade_with_the_users_activity_unless_recalled(memory, user):
    cards = remember(
        memory,
        user,
        ("The office printer jammed once", "2019-01-08T10:00:00Z", {"importance": 0.1}),
        ("The canteen ran out of soup", "2019-01-08T10:00:00Z", {"importance": 0.1}),
        ("I am allergic to penicillin", "2019-01-08T10:00:00Z", {"importance": 0.1}),
        ("I live in Lyon", "2019-01-08T10:00:00Z", {"importance": 0.1}),
    )
    busy(memory, user, 130)
    printer, canteen = cards["The office printer jammed once"], cards["The canteen ran out of soup"]
    assert [h.card.id for h in memory.recall(user, "canteen soup", k=1)] == [canteen.id]
    memory.accesses.flush()  # recall records accesses in the background; land them now

    dry = memory.consolidate(user, steps=["forgetting"], dry_run=True)
    report = memory.consolidate(user, steps=["forgetting"])

    assert [(f.card_id, f.applied) for f in dry.forgotten] == [(printer.id, False)]
    [forgotten] = report.forgotten
    assert (forgotten.card_id, forgotten.applied) == (printer.id, True)
    assert forgotten.score > 0.8
    assert forgotten.reason.startswith(
        "trivial (importance 0.1), 130 active days since, never recalled"
    )
    assert memory.get(user, printer.id).status == Status.FORGOTTEN
    for kept in ("The canteen ran out of soup", "I am allergic to penicillin", "I live in Lyon"):
        assert memory.get(user, cards[kept].id).status == Status.ACTIVE
    [row] = memory._store.run("get_cards", {"user_id": user, "ids": [printer.id]})
    assert (row["card"]["forgotten_reason"], row["card"]["forgotten_score"]) == (
        forgotten.reason,
        forgotten.score,
    )
    assert row["card"]["forgotten_at"] == report.now

    assert memory.restore(user, printer.id).status == Status.ACTIVE


def test_a_long_superseded_card_fades_and_comes_back_superseded(memory, user):
    cards = remember(
        memory,
        user,
        ("I live in Paris", "2019-01-01T10:00:00Z", {"importance": 0.1}),
        ("I moved to Berlin", "2019-06-01T10:00:00Z", {"importance": 0.1}),
    )
    busy(memory, user, 130)
    paris = cards["I live in Paris"]

    [forgotten] = memory.consolidate(user, steps=["forgetting"]).forgotten

    assert forgotten.card_id == paris.id
    assert forgotten.reason.startswith("superseded, 130 active days since")
    assert memory.get(user, cards["I moved to Berlin"].id).status == Status.ACTIVE
    assert memory.restore(user, paris.id).status == Status.SUPERSEDED


def test_capacity_forgets_the_most_faded_cards(memory, user):
    cards = remember(
        memory,
        user,
        *[(f"I visited museum number {i}", f"2025-0{i + 1}-01T10:00:00Z") for i in range(4)],
    )

    report = memory.consolidate(user, steps=["forgetting"], capacity=2, now=NOW)

    oldest = [cards[f"I visited museum number {i}"].id for i in (0, 1)]
    assert [f.card_id for f in report.forgotten] == oldest
    assert all(f.reason.startswith("over capacity (4 active > 2)") for f in report.forgotten)
    assert memory.count(user) == {"active": 2, "forgotten": 2}


# -- dry run and isolation ---------------------------------------------------------------


def everything(memory, user):
    """A conflict left from before write-time detection, a trivial card the user's
    activity has faded (at a low threshold), and two clusters."""
    remember(
        memory,
        user,
        ("I live in Paris", "2023-01-10T10:00:00Z"),
        ("The office printer jammed once", "2019-01-08T10:00:00Z", {"importance": 0.1}),
    )
    written_before_claims(memory, user)
    remember(memory, user, ("I moved to Berlin", "2024-02-01T10:00:00Z", {"importance": 0.8}))
    remember_clusters(memory, user)


def test_a_dry_run_reports_everything_and_writes_nothing(memory, user):
    everything(memory, user)
    before = footprint(memory._store, user)

    dry = memory.consolidate(user, dry_run=True, now=NOW, threshold=0.1)

    assert footprint(memory._store, user) == before
    assert (dry.conflicts_found, dry.count("created"), len(dry.forgotten)) == (1, 2, 1)
    assert not any(c.applied for c in dry.conflicts)
    assert not any(f.applied for f in dry.forgotten)
    real = memory.consolidate(user, now=NOW, threshold=0.1)
    assert real.summary() | {"dry_run": True} == dry.summary()
    after = footprint(memory._store, user)
    assert (after["Card:superseded"], after["Card:forgotten"], after["Abstraction"]) == (1, 1, 2)


def test_consolidating_one_user_never_touches_another(memory, user):
    other = user + "-b"
    everything(memory, user)
    everything(memory, other)
    before = footprint(memory._store, other)

    report = memory.consolidate(user, now=NOW, threshold=0.1)

    assert report.conflicts_found == 1
    assert len(report.forgotten) == 1
    assert footprint(memory._store, other) == before
    assert memory.count(other) == {"active": 12}


def test_bad_arguments_are_rejected(memory, user):
    with pytest.raises(ValidationError) as err:
        memory.consolidate(user, steps=["dreaming"])
    assert err.value.field == "steps"
    with pytest.raises(ValidationError):
        memory.consolidate(user, capacity=-1)


# -- feedback ----------------------------------------------------------------------------


def test_feedback_moves_reward_and_confidence_and_flags_on_down(memory, user):
    card = memory.remember({"user_id": user, "fact": "I prefer window seats"})

    up = memory.feedback(user, card.id, "up")
    down = memory.feedback(user, card.id, 1)
    up_again = memory.feedback(user, card.id, 5)

    assert (up.reward, up.confidence, up.needs_revision, up.version) == (0.3, 0.82, False, 2)
    assert (down.reward, down.confidence, down.needs_revision) == (-0.09, 0.738, True)
    assert (up_again.reward, up_again.needs_revision, up_again.version) == (0.237, True, 4)
    with pytest.raises(ValidationError):
        memory.feedback(user, card.id, 7)
    with pytest.raises(NotFoundError):
        memory.feedback(user, "no-such-card", "up")


def test_restore_refuses_a_card_that_is_not_forgotten(memory, user):
    card = memory.remember({"user_id": user, "fact": "I prefer aisle seats"})
    with pytest.raises(ConflictError):
        memory.restore(user, card.id)


# -- CLI ---------------------------------------------------------------------------------


def test_cli_consolidate_and_feedback(home):
    runner = CliRunner()
    base = ["--home", str(home)]
    for fact, when in (
        ("I live in Paris", "2023-01-10T10:00:00Z"),
        ("I moved to Berlin", "2024-02-01T10:00:00Z"),
    ):
        done = runner.invoke(
            app, [*base, "remember", fact, "--user", "u", "--timestamp", when, "--json"]
        )
        assert done.exit_code == 0, done.output

    dry = runner.invoke(
        app,
        [
            *base,
            "consolidate",
            "--user",
            "u",
            "--dry-run",
            "--steps",
            "conflicts",
            "--as-of",
            "2024-06-01",
        ],
    )
    table = runner.invoke(app, [*base, "consolidate", "--user", "u", "--json"])
    listed = runner.invoke(app, [*base, "list", "--user", "u", "--status", "all", "--json"])

    assert dry.exit_code == 0, dry.output
    assert "dry run" in dry.output
    assert table.exit_code == 0, table.output
    report = json.loads(table.stdout)
    # The move superseded Paris as it was remembered: nothing left for consolidation.
    assert (report["summary"]["conflicts_found"], report["summary"]["forgotten"]) == (0, 0)
    paris = next(c for c in json.loads(listed.stdout) if c["fact"] == "I live in Paris")
    assert paris["status"] == "superseded"
    berlin = next(c for c in json.loads(listed.stdout) if c["fact"] == "I moved to Berlin")
    voted = runner.invoke(
        app, [*base, "feedback", berlin["id"], "--user", "u", "--signal", "down", "--json"]
    )
    assert voted.exit_code == 0, voted.output
    assert json.loads(voted.stdout)["needs_revision"] is True
    bad = runner.invoke(
        app, [*base, "feedback", berlin["id"], "--user", "u", "--signal", "sideways"]
    )
    assert bad.exit_code == 2
