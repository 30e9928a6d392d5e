// Append turns to a session (created on its first turn): one Source per turn, IN the
// Session, with the id ingestion's provenance gives that turn. Compare-and-set on the
// session's turn counter: no row back when another writer moved it since it was read
// ($expected: the counter read, -1 for none), and nothing is written then.
// The SET before the guard takes the session's write lock first (Neo4j).
// Neo4j: the embedding is a plain LIST<FLOAT>.
// $rows: [{id, props: {session_id, turn, role, speaker, text, timestamp, metadata}, embedding}]
MERGE (u:User {user_id: $user_id})
  ON CREATE SET u.tenant = $tenant
MERGE (g:Session {user_id: $user_id, id: $session_id})
  ON CREATE SET g.created_at = $now
SET g.touched_at = $now
WITH g
WHERE coalesce(g.next_turn, -1) = $expected
SET g.next_turn = $next, g.updated_at = $now
WITH g
UNWIND $rows AS r
MERGE (s:Source {user_id: $user_id, id: r.id})
  ON CREATE SET s += r.props, s.embedding = r.embedding, s.created_at = $now
MERGE (s)-[:IN]->(g)
RETURN s.id AS id
