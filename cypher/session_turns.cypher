// A session's live turns after index $after, newest first (the caller puts them back in
// order), at most $limit; whether each is folded into the session summary.
MATCH (g:Session {user_id: $user_id, id: $session_id})
MATCH (s:Source {user_id: $user_id})-[:IN]->(g)
WHERE s.deleted_at IS NULL AND s.turn > $after
OPTIONAL MATCH (m:SessionSummary {user_id: $user_id})-[:SUMMARIZES]->(s)
RETURN s {.*, embedding: null} AS turn, m IS NOT NULL AS compacted
ORDER BY s.turn DESC
LIMIT $limit
