"""A store written before full-text tenant tokens opens, gets migrated and searches right."""

from graphmem import Memory
from graphmem.embedding import default_embedder
from graphmem.store.falkordb import FalkorDBStore
from graphmem.store.text import tenant_token


def _old_store(home, embedder):
    """Cards and a full-text index as graphmem wrote them before tenant tokens."""
    store = FalkorDBStore.open_embedded(home)
    store.execute(
        "CALL db.idx.fulltext.createNodeIndex({label: 'Card', language: "
        "'english'}, 'fact', 'backstory', 'person')",
        write=True,
    )
    for user, fact in (
        ("ada", "Alice is allergic to peanuts"),
        ("bob", "Bob's sister is allergic to shellfish"),
    ):
        store.execute(
            "MERGE (u:User {user_id: $user}) "
            "CREATE (c:Card {user_id: $user, id: $id, fact: $fact, person: 'me', "
            "status: 'active', timestamp: 0, version: 1, content_hash: $id, "
            "embedding: vecf32($vector)})",
            {
                "user": user,
                "id": f"{user}-1",
                "fact": fact,
                "vector": [float(x) for x in embedder.embed([fact])[0]],
            },
            write=True,
        )
    store.close()


def test_opening_an_old_store_gives_every_card_its_tenant_token(home):
    _old_store(home, default_embedder())

    with Memory.open(home) as memory:
        rows = memory._store.execute(
            "MATCH (c:Card) RETURN c.user_id AS user, c.tenant AS tenant ORDER BY user"
        )
        assert rows == [
            {"user": "ada", "tenant": tenant_token("ada")},
            {"user": "bob", "tenant": tenant_token("bob")},
        ]
        hits = memory.recall("ada", "allergic", channels=("fulltext",))
        assert [h.card.id for h in hits] == ["ada-1"]
        assert memory._store.run("users_without_tenant") == []


def test_fulltext_search_keeps_to_the_users_token(memory, user):
    memory.remember(
        {
            "user_id": user,
            "fact": "Grace collects vintage typewriters",
            "person": "Grace",
            "relationship": "friend",
        }
    )
    memory.remember(
        {
            "user_id": f"{user}-other",
            "fact": "Heidi collects typewriters too",
            "person": "Heidi",
            "relationship": "friend",
        }
    )
    query = memory._store.fulltext_query("typewriters")
    rows = memory._store.run(
        "fulltext_search",
        {"user_id": user, "query": query, "k": 10, "statuses": ["active"], "at": None},
    )
    assert len(rows) == 1
    assert memory.get(user, rows[0]["id"]).person == "Grace"
