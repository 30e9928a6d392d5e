// One live turn of a session by its Source id.
MATCH (s:Source {user_id: $user_id, id: $id})
WHERE s.session_id IS NOT NULL AND s.deleted_at IS NULL
OPTIONAL MATCH (m:SessionSummary {user_id: $user_id})-[:SUMMARIZES]->(s)
RETURN s {.*, embedding: null} AS turn, m IS NOT NULL AS compacted
