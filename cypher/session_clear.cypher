// Clear a session: its summary goes, its turns go (tombstones for those cards cite, as
// in session_delete_turn). The Session node stays: its turn counter keeps turn ids
// unique, so a new turn never takes the id a card still cites.
OPTIONAL MATCH (m:SessionSummary {user_id: $user_id, id: $session_id})
DETACH DELETE m
WITH count(*) AS summaries
MATCH (g:Session {user_id: $user_id, id: $session_id})
OPTIONAL MATCH (s:Source {user_id: $user_id})-[:IN]->(g)
WHERE s.deleted_at IS NULL
OPTIONAL MATCH (c:Card)-[:FROM]->(s)
WITH g, s, count(c) AS citing
WITH g, collect(CASE WHEN citing > 0 THEN s END) AS cited,
     collect(CASE WHEN citing = 0 THEN s END) AS free
FOREACH (s IN cited |
  SET s.deleted_at = $now, s.text = null, s.embedding = null, s.metadata = null)
FOREACH (s IN free | DETACH DELETE s)
SET g.updated_at = $now
RETURN size(cited) + size(free) AS cleared
