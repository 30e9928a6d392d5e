// The next free turn index of a session: its counter, or past the highest turn any
// writer (ingestion included) gave it. Read before session_append's compare-and-set.
OPTIONAL MATCH (g:Session {user_id: $user_id, id: $session_id})
OPTIONAL MATCH (s:Source {user_id: $user_id})-[:IN]->(g)
RETURN g.next_turn AS counter, max(s.turn) AS last
