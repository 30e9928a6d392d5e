// Update one card if its stored version is $expected_version (optimistic locking);
// re-links the person it is about and stamps the user's next revision.
// Neo4j: the embedding is a plain LIST<FLOAT>.
// The state it replaces is archived first as a CardVersion (graphmem/history.py); the
// card records the change that made its new state: $change, $decided_by, $note.
// The vector is removed, then set, in two SETs as FalkorDB needs (its variant says why).
// No row back = stale version or no such card.
MATCH (c:Card {user_id: $user_id, id: $id})
WHERE c.version = $expected_version
MERGE (u:User {user_id: $user_id})
CREATE (v:CardVersion)-[:VERSION_OF]->(c)
SET v += c {.*, embedding: null, tenant: null, revision: null}
WITH c, u, coalesce(u.revision, 0) + 1 AS revision
SET u.revision = revision, c += $props, c.embedding = null, c.version = c.version + 1,
    c.updated_at = $now, c.revision = revision,
    c.change = $change, c.decided_by = $decided_by, c.change_note = $note
WITH c, u
SET c.embedding = $embedding
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
