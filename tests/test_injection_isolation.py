"""Injection and tenant isolation: hostile text is data, and one user never sees another.

Every text field and filter gets Cypher- and RediSearch-looking strings; they must come
back verbatim and leave the rest of the graph untouched. User ids that look like
wildcards, SQL or look-alikes of another user's id get a namespace of their own. A seeded
run writes for many users with overlapping people, sessions and words and checks that no
read (recall, get, cards, people, provenance, tasks, export) crosses users.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import uuid
from collections.abc import Iterator

import pytest

from graphmem import Card, Memory, NotFoundError, ValidationError

HOSTILE = [
    "'",
    '"',
    "\\",
    "\\'",
    '\\"',
    "`",
    "``",
    "$param",
    "$user_id",
    "}) MATCH (n) DETACH DELETE n //",
    '"}) MATCH (n) DETACH DELETE n //',
    "'}) MATCH (n) DETACH DELETE n //",
    "\\\"}) MATCH (n) SET n.user_id = 'pwned' //",
    "` MATCH (n) DETACH DELETE n `",
    'CYPHER user_id="victim" MATCH (n) RETURN n',
    '@fact:{*} | -x ~y "',
    "*",
    "%",
    "(a|b) -c",
    "@user_id:{victim}",
    "~'\"@{}[]()|*%-",
    "' OR 1=1 --",
    "'; DROP GRAPH graphmem; --",
    "\n MATCH (n) DELETE n",
    "Robert'); DROP TABLE cards;--",
    "\u202e\u0027 OR 1=1",
    "ａｌｉｃｅ",
]


def graph_counts(memory: Memory, user_id: str) -> tuple[int, int]:
    """Nodes and edges of everyone except ``user_id``: what a test must leave intact."""
    nodes = memory._store.execute(
        "MATCH (n) WHERE n.user_id IS NULL OR n.user_id <> $u RETURN count(n) AS n", {"u": user_id}
    )[0]["n"]
    edges = memory._store.execute(
        "MATCH (a)-[r]->(b) WHERE a.user_id IS NULL OR a.user_id <> $u RETURN count(r) AS n",
        {"u": user_id},
    )[0]["n"]
    return nodes, edges


@pytest.fixture
def bystander(memory: Memory) -> Iterator[str]:
    """A user with data an attacker would like to reach or destroy."""
    victim = f"victim-{uuid.uuid4().hex[:8]}"
    memory.remember(
        {
            "user_id": victim,
            "fact": "Alice is allergic to peanuts",
            "person": "Alice",
            "relationship": "sister",
            "source": {"session_id": "s1", "turn": 0, "text": "my sister Alice"},
        }
    )
    return victim


def _card(user: str, text: str, **extra) -> dict:
    return {
        "user_id": user,
        "fact": f"note {text}",
        "backstory": text,
        "person": text,
        "relationship": text,
        "tags": [text[:64]],
        **extra,
    }


# -- injection: stored verbatim, never executed -----------------------------------------


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_in_every_field_is_stored_verbatim(
    memory: Memory, user: str, bystander: str, text: str
):
    before = graph_counts(memory, user)
    card = Card(
        **_card(
            user,
            text,
            source={
                "session_id": text,
                "speaker": text,
                "document": None,
                "turn": 1,
                "text": f"said: {text}",
                "extractor": text,
            },
        )
    )
    stored = memory.remember(card)
    assert stored.fact == card.fact
    assert (stored.backstory, stored.person, stored.tags) == (
        card.backstory,
        card.person,
        card.tags,
    )
    assert stored.relationship == card.relationship
    assert stored.source == card.source
    assert graph_counts(memory, user) == before
    assert [c.fact for c in memory.cards(bystander)] == ["Alice is allergic to peanuts"]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_recall_queries_and_filters_find_only_own_cards(
    memory: Memory, user: str, bystander: str, text: str
):
    mine = memory.remember(_card(user, text, category="work"))
    before = graph_counts(memory, user)
    hits = memory.recall(user, f"Alice peanuts {text}", k=20)
    assert [h.card.id for h in hits] == [mine.id]
    filtered = memory.recall(
        user,
        text if text.strip() else "x",
        k=20,
        person=text,
        relationship=text,
        tags=[text],
        category=[text, "work"],
    )
    assert {h.card.user_id for h in filtered} <= {user}
    assert memory.recall(bystander, text if text.strip() else "x", k=20, person=text) == []
    assert graph_counts(memory, user) == before


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_ids_for_reads_are_not_found_not_executed(
    memory: Memory, user: str, bystander: str, text: str
):
    before = graph_counts(memory, user)
    assert memory.get_many(user, [text]) == []
    with pytest.raises(NotFoundError):
        memory.get(user, text)
    with pytest.raises(NotFoundError):
        memory.forget(user, text, hard=True)
    with pytest.raises(NotFoundError):
        memory.provenance(user, text)
    assert graph_counts(memory, user) == before


def test_fulltext_syntax_in_a_query_is_reduced_to_plain_words(memory: Memory):
    query = memory._store.fulltext_query('@fact:{*} | -peanuts ~allergy "sister" %alice%')
    assert query == "fact|peanuts|allergy|sister|alice"


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_in_tasks_is_stored_verbatim(
    memory: Memory, user: str, bystander: str, text: str
):
    before = graph_counts(memory, user)
    subject = " ".join(f"do {text}".split())
    task = memory.tasks.create(
        user, subject, description=text, owner=text if text.strip() and "\n" not in text else None
    )
    assert (task.subject, task.description) == (subject, text.strip())
    assert memory.tasks.get(user, task.id).subject == subject
    assert memory.tasks.list(bystander) == []
    assert graph_counts(memory, user) == before
    with pytest.raises(ValidationError):
        memory.tasks.create(user, "x", blocked_by=[text])  # ids are a closed alphabet


# -- user ids that try to escape their namespace ------------------------------------------

ESCAPES = [
    "*",
    "%",
    "' OR 1=1 --",
    '" OR ""="',
    "\\",
    "`",
    "$user_id",
    ".*",
    "%s",
    "{victim}",
    "ＶＩＣＴＩＭ",
]


@pytest.mark.parametrize("suffix", ESCAPES)
def test_user_ids_that_look_like_wildcards_get_their_own_namespace(
    memory: Memory, bystander: str, suffix: str
):
    attacker = f"{uuid.uuid4().hex[:6]}{suffix}"
    mine = memory.remember({"user_id": attacker, "fact": "Alice likes tea", "person": "Alice"})
    assert [c.id for c in memory.cards(attacker)] == [mine.id]
    assert [h.card.id for h in memory.recall(attacker, "Alice peanuts allergic", k=50)] == [mine.id]
    assert [p.name for p in memory.people(attacker)] == ["Alice", "me"] or [
        p.name for p in memory.people(attacker)
    ] == ["Alice"]
    assert memory.count(attacker) == {"active": 1}
    assert memory.count(bystander) == {"active": 1}


LOOKALIKES = {
    "upper case": str.upper,
    "zero-width space after": lambda v: v + "\u200b",
    "zero-width space before": lambda v: "\u200b" + v,
    "combining accent": lambda v: v + "\u0301",
    "byte order mark": lambda v: v + "\ufeff",
    "cyrillic i": lambda v: v.replace("i", "\u0456"),
    "fullwidth": lambda v: "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in v),
}


@pytest.mark.parametrize("how", list(LOOKALIKES))
def test_look_alike_user_ids_are_different_users(memory: Memory, bystander: str, how: str):
    other = LOOKALIKES[how](bystander)
    assert other != bystander
    memory.remember({"user_id": other, "fact": "look-alike's note"})
    assert [c.fact for c in memory.cards(other)] == ["look-alike's note"]
    assert [c.fact for c in memory.cards(bystander)] == ["Alice is allergic to peanuts"]
    assert memory.recall(other, "Alice allergic peanuts", k=10)[0].card.user_id == other


@pytest.mark.parametrize("padding", [" ", "  ", "\u3000", "\t"])
def test_a_user_id_with_trailing_spaces_is_not_another_users(
    memory: Memory, bystander: str, padding: str
):
    padded = bystander + padding
    with contextlib.suppress(ValidationError):  # refusing it is fine too
        memory.remember({"user_id": padded, "fact": "written by the padded id"})
    assert [c.fact for c in memory.cards(bystander)] == ["Alice is allergic to peanuts"]


@pytest.mark.parametrize("bad", ["", "a\x00b", "a\nb", "x" * 129, 42, None])
def test_malformed_user_ids_are_refused_by_every_read(memory: Memory, bad):
    for call in (
        lambda: memory.cards(bad),
        lambda: memory.count(bad),
        lambda: memory.people(bad),
        lambda: memory.recall(bad, "x"),
        lambda: memory.get(bad, "x"),
        lambda: memory.tasks.list(bad),
    ):
        with pytest.raises(ValidationError) as err:
            call()
        assert err.value.field == "user_id"


# -- randomised: many users, overlapping names, nothing crosses ----------------------------

PEOPLE = ["Alice", "alice", "Bob", "Carol", "Dave", "me", "Alice Smith", "ALICE"]
WORDS = ["peanuts", "sushi", "marathon", "piano", "Paris", "deadline", "birthday", "dog"]


def _corpus(seed: int, users: int, per_user: int) -> dict[str, list[dict]]:
    rng = random.Random(seed)
    run = uuid.uuid4().hex[:6]
    corpus: dict[str, list[dict]] = {}
    for u in range(users):
        user = f"iso-{run}-{u:02d}"
        cards = []
        for i in range(per_user):
            person = rng.choice(PEOPLE)
            words = " ".join(rng.sample(WORDS, 3))
            cards.append(
                {
                    "user_id": user,
                    "person": person,
                    "relationship": rng.choice(["sister", "friend", "manager", None]),
                    "fact": f"{person}: {words} ({user} #{i})",
                    "timestamp": 1_700_000_000_000 + rng.randrange(10**9),
                    # same session ids and turns in every user: Source nodes must not merge
                    "source": {
                        "session_id": f"s{i % 3}",
                        "turn": i % 5,
                        "text": f"turn {i % 3}/{i % 5} of {user}",
                    },
                }
            )
        corpus[user] = cards
    return corpus


@pytest.fixture(scope="module")
def tenants(memory: Memory) -> dict[str, list[Card]]:
    corpus = _corpus(seed=20240320, users=20, per_user=20)
    memory.remember_many([c for cards in corpus.values() for c in cards])
    for user in list(corpus)[:5]:  # a few users have tasks citing their cards too
        ids = [Card(**c).id for c in corpus[user][:3]]
        first = memory.tasks.create(user, f"plan for {user}", cites=ids[:2])
        memory.tasks.create(user, f"follow-up for {user}", blocked_by=[first.id], cites=ids[2:])
    return {user: [Card(**c) for c in cards] for user, cards in corpus.items()}


def _owned_text(value: object, user: str, users: list[str]) -> None:
    """No other user's id occurs anywhere in ``value`` (a result rendered as JSON)."""
    text = json.dumps(value, default=str, ensure_ascii=False)
    strangers = [u for u in users if u != user and u in text]
    assert strangers == [], f"{user} sees data of {strangers}"


def test_recall_never_returns_another_users_cards(memory: Memory, tenants):
    users = list(tenants)
    rng = random.Random(7)
    for user in users:
        for _ in range(2):
            query = f"{rng.choice(PEOPLE)} {' '.join(rng.sample(WORDS, 2))} {rng.choice(users)}"
            hits = memory.recall(user, query, k=50)
            assert {h.card.user_id for h in hits} == {user}
            _owned_text([h.model_dump() for h in hits], user, users)
        hits = memory.recall(user, "Alice", k=50, person="Alice")
        assert {h.card.user_id for h in hits} <= {user}


def test_reads_by_id_never_cross_users(memory: Memory, tenants):
    users = list(tenants)
    for n, user in enumerate(users):
        own = [c.id for c in tenants[user]]
        other = users[(n + 1) % len(users)]
        theirs = [c.id for c in tenants[other]]
        assert memory.get_many(user, theirs) == []  # ids differ: content includes user_id
        assert sorted(c.id for c in memory.get_many(user, own)) == sorted(own)
        assert sorted(c.id for c in memory.cards(user)) == sorted(own)
        assert memory.count(user) == {"active": 20}
        with pytest.raises(NotFoundError):
            memory.get(user, theirs[0])


def test_people_and_provenance_never_cross_users(memory: Memory, tenants):
    users = list(tenants)
    for user in users:
        people = memory.people(user)
        expected = {" ".join(c.person.lower().split()) for c in tenants[user]}
        assert {p.name.lower() for p in people} == expected
        assert sum(p.card_count for p in people) == 20
        _owned_text([p.model_dump() for p in people], user, users)
        for card in tenants[user][:3]:
            prov = memory.provenance(user, card.id)
            assert prov.source is not None
            assert prov.source.text == card.source.text
            _owned_text(prov.model_dump(mode="json"), user, users)


def test_same_card_id_in_two_users_stays_two_cards(memory: Memory):
    a, b = f"twin-{uuid.uuid4().hex[:6]}", f"twin-{uuid.uuid4().hex[:6]}"
    memory.remember({"user_id": a, "id": "shared-id", "fact": f"secret of {a}"})
    memory.remember({"user_id": b, "id": "shared-id", "fact": f"secret of {b}"})
    assert memory.get(a, "shared-id").fact == f"secret of {a}"
    assert memory.get(b, "shared-id").fact == f"secret of {b}"
    memory.forget(a, "shared-id", hard=True)
    assert memory.get(b, "shared-id").fact == f"secret of {b}"
    with pytest.raises(NotFoundError):
        memory.get(a, "shared-id")


def test_tasks_never_cross_users(memory: Memory, tenants):
    users = list(tenants)
    owner, stranger = users[0], users[1]
    tasks = memory.tasks.list(owner)
    assert [t.subject for t in tasks] == [f"plan for {owner}", f"follow-up for {owner}"]
    _owned_text([t.model_dump() for t in tasks], owner, users)
    with pytest.raises(NotFoundError):
        memory.tasks.get(stranger, tasks[0].id)
    with pytest.raises(NotFoundError):  # a stranger's card cannot be cited
        memory.tasks.cite(owner, tasks[0].id, [tenants[stranger][0].id])
    with pytest.raises(NotFoundError):  # nor a stranger's task be a blocker
        memory.tasks.create(stranger, "hijack", blocked_by=[tasks[0].id])
    assert memory.tasks.list(users[10]) == []


def test_export_holds_exactly_one_user(memory: Memory, tenants):
    export = pytest.importorskip("graphmem.export")
    users = list(tenants)
    for user in users[:4]:
        out = io.StringIO()
        export.export_user(memory, user, out)
        records = [json.loads(line) for line in out.getvalue().splitlines()]
        cards = [r for r in records if r["type"] == "card"]
        assert sorted(r["id"] for r in cards) == sorted(c.id for c in tenants[user])
        _owned_text(records, user, users)


def test_import_into_one_user_cannot_write_into_another(memory: Memory, tenants):
    export = pytest.importorskip("graphmem.export")
    users = list(tenants)
    source, target, victim = users[5], f"imported-{uuid.uuid4().hex[:6]}", users[6]
    out = io.StringIO()
    export.export_user(memory, source, out)
    lines = out.getvalue().splitlines()
    # a doctored file: every record claims the victim's user id
    doctored = [json.dumps(_claim(json.loads(line), victim)) for line in lines]
    before = graph_counts(memory, target)
    export.import_file(memory, doctored, user_id=target)
    assert graph_counts(memory, target) == before  # nobody else gained or lost a node
    assert sorted(c.fact for c in memory.cards(target)) == sorted(c.fact for c in tenants[source])
    assert memory.count(victim) == {"active": 20}


def _claim(record: dict, victim: str) -> dict:
    if record.get("type") == "header":
        return {**record, "user_id": victim}
    props = record.get("props")
    if isinstance(props, dict):
        record = {**record, "props": {**props, "user_id": victim}}
    return record


def test_consolidating_one_user_leaves_every_other_user_as_it_was(memory: Memory, tenants):
    users = list(tenants)
    target = users[7]
    before = graph_counts(memory, target)
    others = {
        u: sorted((c.id, c.version, c.status.value) for c in memory.cards(u, status=None))
        for u in users
        if u != target
    }
    memory.consolidate(target, seed=1)
    assert graph_counts(memory, target) == before
    assert {
        u: sorted((c.id, c.version, c.status.value) for c in memory.cards(u, status=None))
        for u in others
    } == others


# -- erasure: a hard-forgotten fact leaves no copy on disk ----------------------------------


def test_a_hard_forgotten_fact_is_not_left_in_the_data_files(home):
    secret = "SECRET-PINEAPPLE-42"
    with Memory.open(home) as mem:
        card = mem.remember({"user_id": "u", "fact": f"{secret} is my PIN"})
        mem.forget("u", card.id, hard=True)
        leftovers = [
            p.name for p in home.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()
        ]
    assert leftovers == []
