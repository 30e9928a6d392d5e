// Update one card if its stored version is $expected_version (optimistic locking);
// re-links the person it is about and stamps the user's next revision.
// Neo4j: the embedding is a plain LIST<FLOAT>.
// No row back = stale version or no such card.
MATCH (c:Card {user_id: $user_id, id: $id})
WHERE c.version = $expected_version
MERGE (u:User {user_id: $user_id})
WITH c, u, coalesce(u.revision, 0) + 1 AS revision
SET u.revision = revision, c += $props, c.embedding = $embedding, c.version = c.version + 1,
    c.updated_at = $now, c.revision = revision
WITH c, u
OPTIONAL MATCH (c)-[a:ABOUT]->(:Person)
DELETE a
WITH DISTINCT c, u
MERGE (p:Person {user_id: $user_id, key: $person_key})
  ON CREATE SET p.name = $person, p.created_at = $now
MERGE (c)-[:ABOUT]->(p)
MERGE (u)-[k:KNOWS]->(p)
  ON CREATE SET k.relationship = $relationship, k.since = $timestamp, k.history = []
RETURN c.version AS version
