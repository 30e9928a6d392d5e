"""Recall on a real store: people and relationships, filters, isolation, context budget."""

import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import Memory
from graphmem.errors import ValidationError
from graphmem.recall.access import AccessRecorder
from graphmem.recall.budget import estimate_tokens
from graphmem.recall.context import MIN_BUDGET
from ingestion.pipeline import ingest_file
from tests.conftest import write_chat

MEMORIES = [
    {
        "fact": "Alice lives in Lyon",
        "person": "Alice",
        "relationship": "sister",
        "timestamp": "2024-01-10",
        "category": "life",
    },
    {
        "fact": "Alice cannot eat peanuts, she reacts badly",
        "person": "Alice",
        "timestamp": "2024-02-01",
        "category": "constraint",
        "tags": ["food", "health"],
    },
    {
        "fact": "Bob is allergic to cats",
        "person": "Bob",
        "relationship": "manager",
        "timestamp": "2024-02-03",
        "category": "health",
    },
    {
        "fact": "Bob prefers meetings before 10am",
        "person": "Bob",
        "timestamp": "2024-02-05",
        "category": "preference",
        "tags": ["work"],
    },
    {
        "fact": "Bob's daughter Emma started violin lessons",
        "person": "Bob",
        "timestamp": "2024-03-01",
        "category": "life",
    },
    {
        "fact": "Emma practises violin every evening",
        "person": "Emma",
        "timestamp": "2024-03-08",
        "category": "life",
    },
    {
        "fact": "I like my coffee black",
        "person": "me",
        "timestamp": "2024-03-10",
        "category": "preference",
        "tags": ["food"],
    },
    {
        "fact": "I work as a data engineer at Acme",
        "person": "me",
        "timestamp": "2023-06-01",
        "category": "work",
    },
    {
        "fact": "I work as a staff engineer at Globex",
        "person": "me",
        "timestamp": "2024-04-01",
        "category": "work",
    },
]


@pytest.fixture
def remembered(memory: Memory, user: str) -> str:
    memory.remember_many([{"user_id": user, **m} for m in MEMORIES])
    return user


def facts(hits) -> list[str]:
    return [h.card.fact for h in hits]


def test_relationship_query_finds_the_sister_by_name(memory: Memory, remembered: str):
    hits = memory.recall(remembered, "what is my sister allergic to?", k=3)
    assert hits[0].card.fact == "Alice cannot eat peanuts, she reacts badly"
    assert "graph" in hits[0].found_by
    assert hits[0].paths == ["relationship 'sister' -> Alice -> card"]


def test_multi_hop_through_a_person_named_in_a_card(memory: Memory, remembered: str):
    hits = memory.recall(remembered, "what does my boss's daughter practise?", k=3)
    assert "Emma practises violin every evening" in facts(hits)
    emma = next(h for h in hits if h.card.person == "Emma")
    assert "graph-hop" in emma.found_by
    assert "Bob -> mentions Emma -> card" in emma.paths


def test_a_hop_no_word_of_the_question_asks_for_stays_behind_the_answer(
    memory: Memory, user: str, tmp_path: Path
):
    """ "我對咩嘢 allergic 㗎" ("what am I allergic to?") names no one; the user's best
    passages name her sister Cherry, and Cherry's card ("I'm the bridesmaid") is reached by
    a hop no relationship word of the question asked for: it ranks below the allergist's
    finding, not above it."""
    chat = [
        {"session_id": "2025-01-19", "date": "2025-01-19T21:00:00+08:00"},
        {
            "session_id": "2025-01-19",
            "speaker": "user",
            "text": "仲有 我阿妹 cherry 上個月 engaged 咗, 六月擺酒, 媽咪已經開始緊張 banquet 嘅 "
            "menu. 我做 bridesmaid, 但係我唔想著粉紅色 🙄",
        },
        {"session_id": "2025-02-09", "date": "2025-02-09T21:00:00+08:00"},
        {
            "session_id": "2025-02-09",
            "speaker": "user",
            "text": "咁嚴重? 我以前食蝦都冇事㗎 30年! ok 我約咗 allergist 三月. "
            "taipei 就 book 咗, 4月4號去",
        },
        {"session_id": "2025-03-30", "date": "2025-03-30T21:00:00+08:00"},
        {
            "session_id": "2025-03-30",
            "speaker": "user",
            "text": "ok 好. allergist 驗咗, 確認係甲殼類 allergy, 蝦蟹龍蝦都唔食得. "
            "開咗支 epipen 俾我, 要隨身帶 😭 我最鍾意食蟹㗎",
        },
        {"session_id": "2025-05-18", "date": "2025-05-18T21:00:00+08:00"},
        {
            "session_id": "2025-05-18",
            "speaker": "user",
            "text": "仲有一樣... 上個月同 sydney 行龍脊, 識咗個男仔叫 marcus, "
            "佢係 sydney 嘅 friend of friend. 食咗兩次 dinner 啦 🙈 好 gentleman, "
            "會記得我唔食得蝦幫我問 waiter",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, chat), user, progress=False)
    hits = memory.recall(user, "我對咩嘢 allergic 㗎", k=3)
    assert "甲殼類" in hits[0].card.fact
    bridesmaid = next(h for h in hits if "bridesmaid" in h.card.fact)
    assert "graph-hop" in bridesmaid.found_by


def test_every_hit_explains_its_score(memory: Memory, remembered: str):
    hit = memory.recall(remembered, "coffee", k=1)[0]
    assert hit.card.fact == "I like my coffee black"
    assert set(hit.parts) == {
        "relevance",
        "recency",
        "importance",
        "confidence",
        "reward",
        "lexical",
        "cosine",
    }
    assert 0 < hit.score <= 1
    assert 0 < hit.relevance <= 1
    assert hit.card.source is None  # remembered by hand: no source turn


def test_the_newer_job_replaces_the_older_as_it_is_remembered(memory: Memory, remembered: str):
    # The Globex card superseded the Acme one in the same write: recall never saw both live.
    current = facts(memory.recall(remembered, "where do I work?", k=2))
    assert current[0] == "I work as a staff engineer at Globex"
    assert "I work as a data engineer at Acme" not in current  # superseded: hidden
    history = memory.recall(remembered, "where do I work?", k=2, include_superseded=True)
    assert facts(history) == [
        "I work as a staff engineer at Globex",
        "I work as a data engineer at Acme",
    ]
    assert history[1].card.status == "superseded"
    before = memory.recall(remembered, "where did I work before Globex?", k=1)
    assert facts(before) == ["I work as a data engineer at Acme"]


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"person": "Bob"}, {"Bob"}),
        ({"relationship": "boss"}, {"Bob"}),
        ({"relationship": "sister"}, {"Alice"}),
    ],
)
def test_person_filters_hold(memory: Memory, remembered: str, filters, expected):
    hits = memory.recall(remembered, "allergic", k=10, **filters)
    assert hits
    assert {h.card.person for h in hits} == expected


def test_category_tag_and_time_filters_hold(memory: Memory, remembered: str):
    by_category = memory.recall(remembered, "food and work", k=10, category="preference")
    assert {h.card.category for h in by_category} == {"preference"}
    by_tag = memory.recall(remembered, "food", k=10, tags=["Food"])
    assert set(facts(by_tag)) == {
        "I like my coffee black",
        "Alice cannot eat peanuts, she reacts badly",
    }
    in_march = memory.recall(remembered, "violin", k=10, since="2024-03-01", until="2024-03-31")
    assert set(facts(in_march)) <= {
        "Bob's daughter Emma started violin lessons",
        "Emma practises violin every evening",
        "I like my coffee black",
    }
    assert "Emma practises violin every evening" in facts(in_march)


def test_forgotten_cards_are_left_out_unless_asked(memory: Memory, remembered: str):
    coffee = memory.recall(remembered, "coffee", k=1)[0].card
    memory.forget(remembered, coffee.id)
    assert coffee.id not in [h.card.id for h in memory.recall(remembered, "coffee", k=5)]
    again = memory.recall(remembered, "coffee", k=5, include_forgotten=True)
    assert coffee.id in [h.card.id for h in again]


def test_users_never_recall_each_others_cards(memory: Memory, remembered: str):
    other = remembered + "-other"
    memory.remember(
        {
            "user_id": other,
            "fact": "Alice is allergic to peanuts",
            "person": "Alice",
            "relationship": "sister",
        }
    )
    mine = memory.recall(remembered, "Alice peanuts allergic sister", k=20)
    assert all(h.card.user_id == remembered for h in mine)
    theirs = memory.recall(other, "Alice peanuts allergic sister", k=20)
    assert [h.card.user_id for h in theirs] == [other]


def test_recall_counts_accesses(memory: Memory, remembered: str):
    card = memory.recall(remembered, "coffee", k=1)[0].card
    memory.accesses.flush()  # recall records accesses in the background; land them now
    after = memory.get(remembered, card.id)
    assert after.access_count == card.access_count + 1
    assert after.last_accessed is not None
    assert after.version == card.version  # reading is not an edit


def test_people_with_relationships_and_counts(memory: Memory, remembered: str):
    people = {p.name: (p.relationship, p.card_count) for p in memory.people(remembered)}
    assert people == {
        "Alice": ("sister", 2),
        "Bob": ("manager", 3),
        "Emma": (None, 1),
        "me": ("self", 2),  # and one superseded job
    }


def test_provenance_of_a_card(memory: Memory, user: str):
    card = memory.remember(
        {
            "user_id": user,
            "fact": "Alice is allergic to peanuts",
            "person": "Alice",
            "relationship": "sister",
            "source": {
                "session_id": "s9",
                "turn": 2,
                "text": "My sister Alice is allergic to peanuts.",
                "span": [0, 39],
            },
        }
    )
    story = memory.provenance(user, card.id)
    assert story.source is not None
    assert story.source.session_id == "s9"
    assert story.source.text[slice(*story.source.span)] == card.source.text[:39]
    assert (story.person, story.relationship) == ("Alice", "sister")
    assert story.supersedes == story.superseded_by == []


def test_context_lists_constraints_and_preferences_first(memory: Memory, remembered: str):
    block = memory.context(remembered, "planning dinner with my sister", token_budget=200)
    lines = block.splitlines()
    assert lines[0].startswith("Known about the user")
    assert lines[1].startswith(("- [Alice, sister", "- [user", "- [Bob"))
    first_other = next(i for i, line in enumerate(lines[1:]) if "Lyon" in line)
    assert "- [Alice, sister, 2024-02-01] Alice cannot eat peanuts" in block
    assert lines.index(next(line for line in lines if "peanuts" in line)) < first_other + 1


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    budget=st.integers(min_value=MIN_BUDGET, max_value=300),
    query=st.sampled_from(["sister", "what should I know for dinner?", "work", "Bob"]),
)
def test_context_never_exceeds_its_budget(memory: Memory, remembered: str, budget, query):
    block = memory.context(remembered, query, token_budget=budget)
    assert estimate_tokens(block) <= budget


@pytest.mark.parametrize("budget", [-1, 0, 5, MIN_BUDGET - 1])
def test_a_budget_too_small_for_any_line_is_an_error(memory: Memory, remembered: str, budget):
    with pytest.raises(ValidationError, match=f"use {MIN_BUDGET} or more") as err:
        memory.context(remembered, "sister", token_budget=budget)
    assert err.value.field == "token_budget"


def test_recalls_in_one_interval_are_written_once_and_counted_exactly(
    memory: Memory, remembered: str, monkeypatch: pytest.MonkeyPatch
):
    """Three recalls of one card within an interval are one row of one write, +3. (The
    interval is made long: at 0.25 s a loaded machine split the three recalls over two
    writes. A wait begun before it was, may still write once more: at most two writes.)"""
    writes = []
    store_run = memory._store.run

    def counting(name, params=None, **kw):
        if name == "touch_cards":
            writes.append({u["user_id"]: len(u["rows"]) for u in params["users"]})
        return store_run(name, params, **kw)

    memory.accesses.flush()
    monkeypatch.setattr(memory.accesses, "interval", 60.0)
    memory._store.run = counting
    try:
        card = memory.recall(remembered, "coffee", k=1)[0].card
        memory.recall(remembered, "coffee", k=1)
        memory.recall(remembered, "coffee", k=1)
        memory.accesses.flush()
    finally:
        del memory._store.run
    assert writes[-1] == {remembered: 1}
    assert writes in ([{remembered: 1}], [{remembered: 1}] * 2)
    assert memory.get(remembered, card.id).access_count == card.access_count + 3


def test_accesses_of_several_users_land_in_one_write_each_under_its_user(memory: Memory, user: str):
    users = [f"{user}-{i}" for i in range(3)]
    for name in users:  # the same card id for every user: each must count only its own
        memory.remember({"user_id": name, "id": "shared-id", "fact": "I drink green tea"})
    memory.accesses.flush()
    memory.recall(users[0], "green tea", k=1)
    memory.recall(users[0], "green tea", k=1)
    memory.recall(users[1], "green tea", k=1)
    memory.accesses.flush()
    counts = [memory.get(name, "shared-id").access_count for name in users]
    assert counts == [2, 1, 0]


def test_accesses_land_without_a_flush_and_at_close(memory: Memory, user: str):
    """The writer thread writes recorded accesses within its interval, over and over;
    closing writes what is still pending."""
    memory.remember({"user_id": user, "id": "tea", "fact": "I drink green tea"})
    recorder = AccessRecorder(memory._store, interval=0.05)
    for expected in (1, 2):
        recorder.record(user, ["tea"], 1_700_000_000_000)
        deadline = time.monotonic() + 10
        while memory.get(user, "tea").access_count < expected and time.monotonic() < deadline:
            time.sleep(0.02)
        assert memory.get(user, "tea").access_count == expected
    slow = AccessRecorder(memory._store, interval=60)
    slow.record(user, ["tea"], 1_700_000_000_000)
    slow.close()
    recorder.close()
    assert memory.get(user, "tea").access_count == 3


def chat_of(*sessions: tuple[str, list[str]]) -> list[dict]:
    """A chat export of the user's turns, one session a day."""
    rows: list[dict] = []
    for day, turns in sessions:
        rows.append({"session_id": day, "date": f"{day}T20:00:00-06:00"})
        rows += [{"session_id": day, "speaker": "user", "text": text} for text in turns]
    return rows


def test_a_parent_asked_by_the_word_the_user_calls_her_finds_the_turns_saying_it(
    memory: Memory, user: str, tmp_path: Path
):
    """Mama is Darlene; "where was i gonna take mama" is answered by the turn that says
    "mama", not by the one that says her name."""
    chat = chat_of(
        (
            "2024-10-13",
            [
                "insurance is coverin the cpap so ill prolly do that. mama (darlene) is "
                "worried sick, she thinks im dyin lol"
            ],
        ),
        (
            "2024-12-08",
            [
                "bad news tho the christmas trip is off. was gonna take mama to branson "
                "to see the shows but its a 9 hour drive, so were doin ruidoso instead"
            ],
        ),
    )
    ingest_file(memory, write_chat(tmp_path, chat), user, progress=False)
    hits = memory.recall(user, "where was i gonna take mama for christmas at first", k=2)
    assert "branson" in hits[0].card.fact


def test_how_someones_plan_ended_is_the_newest_word_of_it(
    memory: Memory, user: str, tmp_path: Path
):
    chat = chat_of(
        (
            "2024-08-19",
            [
                "lol my coworker sydney says i should forget aga khan and go to "
                "australia. he says if i ever moved to sydney he'd come visit"
            ],
        ),
        (
            "2025-02-09",
            [
                "also funny, sydney from knh texted me, he finally moved abroad but to "
                "the UK not australia lol, he's in leeds now"
            ],
        ),
    )
    ingest_file(memory, write_chat(tmp_path, chat), user, progress=False)
    hits = memory.recall(user, "did sydney end up moving to australia", k=2)
    assert "leeds" in hits[0].card.fact
