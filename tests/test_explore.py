"""The explorer's graph views and routes, against the real embedded store.

One user's small but complete memory: a sister with a source turn, a city that moved
(supersession), a manager who became a friend (relationship history), the user's own
cards, an abstraction, two dependent tasks. Every view is checked for exactly what it
shows, and every route refuses another user's key.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from graphmem import Memory
from graphmem.explore import Subgraph, card_element
from graphmem.service import ApiKeys, ServiceSettings, create_app

KEY, OTHER_KEY = "explore-key-0123456789", "other-key-0123456789"
TURN = "Oh, and my sister Alice is allergic to peanuts, so no satay please."
SPAN = (TURN.index("my sister"), TURN.index(", so"))


@pytest.fixture(scope="module")
def ada(memory: Memory) -> Iterator[tuple[Memory, str, dict[str, str]]]:
    user = f"ada-{uuid.uuid4().hex[:8]}"
    cards = [
        {
            "fact": "Alice is allergic to peanuts",
            "person": "Alice",
            "relationship": "sister",
            "timestamp": "2024-03-20T10:15:00Z",
            "importance": 0.9,
            "source": {
                "session_id": "chat-42",
                "turn": 3,
                "speaker": "user",
                "text": TURN,
                "span": list(SPAN),
            },
        },
        {
            "fact": "Alice lives in Paris",
            "person": "Alice",
            "relationship": "sister",
            "timestamp": "2023-01-01",
        },
        {
            "fact": "Alice moved to Berlin",
            "person": "Alice",
            "relationship": "sister",
            "timestamp": "2024-01-01",
        },
        {
            "fact": "Tom prefers morning meetings",
            "person": "Tom",
            "relationship": "manager",
            "timestamp": "2023-05-01",
        },
        {"fact": "I like green tea", "timestamp": "2024-02-01"},
        {"fact": "I drink green tea every morning", "timestamp": "2024-02-02"},
        {"fact": "I prefer green tea to coffee", "timestamp": "2024-02-03"},
    ]
    memory.remember_many([{**c, "user_id": user} for c in cards])
    # later, Tom is a friend (a write of its own: the relationship's history keeps "manager")
    memory.remember(
        {
            "user_id": user,
            "fact": "Tom and I go climbing on Sundays",
            "person": "Tom",
            "relationship": "friend",
            "timestamp": "2024-06-01",
        }
    )
    memory.consolidate(user, ("conflicts", "abstraction"))
    design = memory.tasks.create(user, "design the menu")
    memory.tasks.create(user, "book the restaurant", blocked_by=[design.id])
    done = memory.tasks.create(user, "ask Alice for dates")
    memory.tasks.complete(user, done.id)
    return memory, user, {"Authorization": f"Bearer {KEY}"}


@pytest.fixture(scope="module")
def client(ada) -> Iterator[TestClient]:
    memory, user, _ = ada
    keys = ApiKeys.parse({KEY: [user], OTHER_KEY: ["someone-else"]})
    with TestClient(create_app(memory, settings=ServiceSettings(api_keys=keys))) as test_client:
        yield test_client


def card_id(memory: Memory, user: str, fact: str) -> str:
    return next(c.id for c in memory.cards(user, status=None) if c.fact == fact)  # type: ignore[misc]


def labels(graph: Subgraph, kind: str) -> dict[str, str | None]:
    return {n.label: n.status for n in graph.nodes if n.kind == kind}


def test_overview_shows_people_relationships_history_and_the_supersession_chain(ada):
    memory, user, _ = ada
    view = memory.explore.overview(user)
    people = {n.label: n for n in view.nodes if n.kind == "person"}
    assert set(people) == {"Alice", "Tom"}
    assert (people["Tom"].relationship, people["Tom"].history) == ("friend", ["manager"])
    assert labels(view, "card") == {
        "Alice is allergic to peanuts": "active",
        "Alice moved to Berlin": "active",
        "Alice lives in Paris": "superseded",  # reached through the chain
        "Tom prefers morning meetings": "active",
        "Tom and I go climbing on Sundays": "active",
        "I like green tea": "active",
        "I drink green tea every morning": "active",
        "I prefer green tea to coffee": "active",
    }
    berlin, paris = (
        card_element(card_id(memory, user, f))
        for f in ("Alice moved to Berlin", "Alice lives in Paris")
    )
    edges = {(e.kind, e.source, e.target): e for e in view.edges}
    assert "location" in (edges["SUPERSEDES", berlin, paris].label or "")
    assert edges["KNOWS", "user", "person:alice"].label == "sister"
    own = card_element(card_id(memory, user, "I like green tea"))
    assert ("ABOUT", own, "user") in edges  # the user's own cards hang on the user
    assert view.counts == {"cards": 8, "cards:active": 7, "cards:superseded": 1, "people": 2}


def test_a_large_person_opens_bounded_and_expands_page_by_page(memory):
    user = f"busy-{uuid.uuid4().hex[:8]}"
    memory.remember_many(
        {
            "user_id": user,
            "fact": f"Bob visited museum number {i}",
            "person": "Bob",
            "relationship": "friend",
            "timestamp": 1_700_000_000_000 + i * 86_400_000,
            "importance": 0.5,
        }
        for i in range(30)
    )
    first = memory.explore.overview(user, per_person=5)
    bob = next(n for n in first.nodes if n.kind == "person")
    shown = [n.label for n in first.nodes if n.kind == "card"]
    assert (bob.total, bob.hidden, len(shown)) == (30, 25, 5)
    assert shown[0] == "Bob visited museum number 29"  # same importance: most recent first
    page = memory.explore.person(user, "bob", offset=5, limit=10)
    more = [n.label for n in page.nodes if n.kind == "card"]
    assert more == [f"Bob visited museum number {i}" for i in range(24, 14, -1)]


def test_history_abstractions_and_tasks_views(ada):
    memory, user, _ = ada
    history = memory.explore.history(user)
    assert [(e.kind, e.decided_by) for e in history.edges if e.kind == "SUPERSEDES"] == [
        ("SUPERSEDES", "rules")
    ]
    clusters = memory.explore.abstractions(user)
    groups = [n for n in clusters.nodes if n.kind == "abstraction"]
    assert len(groups) == 1
    members = {e.target for e in clusters.edges if e.kind == "SUMMARIZES"}
    assert {n.label for n in clusters.nodes if n.id in members} == {
        "I like green tea",
        "I drink green tea every morning",
        "I prefer green tea to coffee",
    }
    assert "green tea" in groups[0].label  # captioned by its summary
    assert groups[0].total == len(members)
    tasks = memory.explore.tasks(user)
    assert labels(tasks, "task") == {
        "design the menu": "ready",
        "book the restaurant": "blocked",
        "ask Alice for dates": "done",
    }
    assert [e.kind for e in tasks.edges] == ["BLOCKED_BY"]


def test_card_details_give_the_source_turn_evidence_and_why_it_was_superseded(ada):
    memory, user, _ = ada
    peanuts = memory.explore.card(user, card_id(memory, user, "Alice is allergic to peanuts"))
    story = peanuts.provenance
    assert story.source is not None
    assert story.source.text == TURN
    assert peanuts.evidence == "my sister Alice is allergic to peanuts"
    assert (story.person, story.relationship, story.status_reason) == ("Alice", "sister", None)
    paris_id = card_id(memory, user, "Alice lives in Paris")
    paris = memory.explore.card(user, paris_id)
    assert paris.provenance.card.status == "superseded"
    assert [d.fact for d in paris.provenance.superseded_by] == ["Alice moved to Berlin"]
    assert "location" in (paris.provenance.status_reason or "")
    # the neighbourhood: the card, its person, and the chain it is in
    nodes = {n.label for n in paris.graph.nodes}
    assert {"Alice lives in Paris", "Alice moved to Berlin", "Alice"} <= nodes
    berlin_id = card_id(memory, user, "Alice moved to Berlin")
    assert f"SUPERSEDES:card:{berlin_id}->card:{paris_id}" in {e.id for e in paris.graph.edges}


def test_recall_view_ties_the_path_to_the_graph(ada):
    memory, user, _ = ada
    hits = memory.recall(user, "what is my sister allergic to?", k=3)
    view = memory.explore.recall_view(user, hits)
    top = view.views[0]
    card = card_element(card_id(memory, user, "Alice is allergic to peanuts"))
    assert card == f"card:{top.card_id}" == f"card:{hits[0].card.id}"
    assert {card, "person:alice", f"ABOUT:{card}->person:alice"} <= set(top.elements)
    # recall's graph channel went sister -> Alice -> card: the KNOWS edge lights up too
    assert "graph" in hits[0].found_by
    assert "KNOWS:user->person:alice" in top.elements
    resolved = [s.element for p in top.paths for s in p.steps if s.element]
    assert {"person:alice", card} <= set(resolved)
    every = {n.id for n in view.graph.nodes} | {e.id for e in view.graph.edges}
    assert all(set(v.elements) <= every for v in view.views)


def test_routes_serve_the_views_to_the_users_key_only(client, ada):
    memory, user, auth = ada
    paris = card_id(memory, user, "Alice lives in Paris")
    for path in (
        "graph",
        "graph/history",
        "graph/abstractions",
        "graph/tasks",
        "graph/people/Alice",
        f"graph/cards/{paris}",
    ):
        ok = client.get(f"/v1/users/{user}/{path}", headers=auth)
        assert ok.status_code == 200, (path, ok.text)
        other = client.get(f"/v1/users/{user}/{path}", headers={"X-API-Key": OTHER_KEY})
        assert other.status_code == 403, path
        assert client.get(f"/v1/users/{user}/{path}").status_code == 401
    recalled = client.post(
        f"/v1/users/{user}/graph/recall", json={"query": "sister allergy", "k": 2}, headers=auth
    )
    assert recalled.status_code == 200
    assert recalled.json()["hits"][0]["card"]["fact"] == "Alice is allergic to peanuts"
    assert client.get(f"/v1/users/{user}/graph/people/Nobody", headers=auth).status_code == 404
    bad = client.get(f"/v1/users/{user}/graph?per_person=9999", headers=auth)
    assert (bad.status_code, bad.json()["field"]) == (422, "per_person")


def test_the_page_is_served_with_a_strict_policy_or_says_how_to_build_it(client):
    assert client.get("/ui", follow_redirects=False).headers["location"] == "/ui/"
    page = client.get("/ui/")
    assert page.status_code in (200, 503)
    assert "script-src 'self'" in page.headers["content-security-policy"]
    if page.status_code == 503:
        assert "npm run build" in page.text
    else:
        assert '<script src="explorer.js"' in page.text
    assert client.get("/ui/../../etc/passwd").status_code == 404
    assert client.get("/ui/secret.txt").status_code == 404
