// A user's sessions that hold turns or a summary (one session when $session_id is
// given), with their live turn counts and summary, most recently active first.
MATCH (g:Session {user_id: $user_id})
WHERE $session_id IS NULL OR g.id = $session_id
OPTIONAL MATCH (s:Source {user_id: $user_id})-[:IN]->(g)
WHERE s.deleted_at IS NULL
WITH g, count(s) AS turns, min(s.timestamp) AS first, max(s.timestamp) AS last
OPTIONAL MATCH (m:SessionSummary {user_id: $user_id})-[:OF]->(g)
WITH g, turns, first, last, m
WHERE turns > 0 OR m IS NOT NULL
RETURN g {.*} AS session, turns, first, last, m.text AS summary, m.through AS through,
       coalesce(g.updated_at, last, g.created_at, g.date, 0) AS active, g.id AS session_id
ORDER BY active DESC, session_id
LIMIT $limit
