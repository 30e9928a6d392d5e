// Update one card if its stored version is $expected_version (optimistic locking);
// re-links the person it is about. Neo4j: the embedding is a plain LIST<FLOAT>.
// No row back = stale version or no such card.
MATCH (c:Card {user_id: $user_id, id: $id})
WHERE c.version = $expected_version
SET c += $props, c.embedding = $embedding, c.version = c.version + 1,
    c.updated_at = $now
WITH c
OPTIONAL MATCH (c)-[a:ABOUT]->(:Person)
DELETE a
WITH DISTINCT c
MERGE (u:User {user_id: $user_id})
MERGE (p:Person {user_id: $user_id, key: $person_key})
  ON CREATE SET p.name = $person, p.created_at = $now
MERGE (c)-[:ABOUT]->(p)
MERGE (u)-[k:KNOWS]->(p)
  ON CREATE SET k.relationship = $relationship, k.since = $timestamp, k.history = []
RETURN c.version AS version
