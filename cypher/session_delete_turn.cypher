// Remove one turn from its conversation. A turn a card or the summary cites stays as a
// tombstone (text, embedding and metadata erased; session and index kept) so their
// provenance still resolves; any other turn is deleted. No row when there is no such
// live turn.
MATCH (s:Source {user_id: $user_id, id: $id})
WHERE s.session_id IS NOT NULL AND s.deleted_at IS NULL
OPTIONAL MATCH (c:Card)-[:FROM]->(s)
OPTIONAL MATCH (m:SessionSummary)-[:SUMMARIZES]->(s)
WITH s, count(c) + count(m) AS citing, s.id AS id
FOREACH (_ IN CASE WHEN citing > 0 THEN [1] ELSE [] END |
  SET s.deleted_at = $now, s.text = null, s.embedding = null, s.metadata = null)
FOREACH (_ IN CASE WHEN citing = 0 THEN [1] ELSE [] END | DETACH DELETE s)
RETURN id
