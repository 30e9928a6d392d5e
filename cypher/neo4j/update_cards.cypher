// Update changed cards, each only if its stored version is r.expected_version
// (optimistic locking); re-links the person each is about (the user's relationship to
// them follows in know_people) and stamps the user's next revision. Only the applied
// rows come back: a missing id = stale version or no card.
// The state each replaces is archived first as a CardVersion (graphmem/history.py); the
// card records the change that made its new state: r.change, r.decided_by, r.note.
// Neo4j: the embedding is a plain LIST<FLOAT>, removed then set in two SETs as FalkorDB
// needs (its variant says why).
// $rows: [{id, expected_version, props, embedding, person_key, person, change,
//          decided_by, note}]
UNWIND $rows AS r
MATCH (c:Card {user_id: $user_id, id: r.id})
WHERE c.version = r.expected_version
MERGE (u:User {user_id: $user_id})
CREATE (v:CardVersion)-[:VERSION_OF]->(c)
SET v += c {.*, embedding: null, tenant: null, revision: null}
WITH r, c, u, coalesce(u.revision, 0) + 1 AS revision
SET u.revision = revision, c += r.props, c.embedding = null, c.version = c.version + 1,
    c.updated_at = $now, c.revision = revision,
    c.change = r.change, c.decided_by = r.decided_by, c.change_note = r.note
WITH r, c, u
SET c.embedding = r.embedding
WITH r, c, u
OPTIONAL MATCH (c)-[a:ABOUT]->(:Person)
DELETE a
WITH DISTINCT r, c, u
MERGE (p:Person {user_id: $user_id, key: r.person_key})
  ON CREATE SET p.name = r.person, p.created_at = $now
MERGE (c)-[:ABOUT]->(p)
RETURN c.id AS id, c.version AS version
