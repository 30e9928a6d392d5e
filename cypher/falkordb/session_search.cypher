// Turns most similar to the query: exact cosine over the user's live, embedded turns
// (one session when $session_id is given), at least $min_score. Tenant-exact.
MATCH (s:Source {user_id: $user_id})
WHERE s.embedding IS NOT NULL AND s.deleted_at IS NULL AND s.session_id IS NOT NULL
  AND ($session_id IS NULL OR s.session_id = $session_id)
WITH s, 1.0 - vec.cosineDistance(s.embedding, vecf32($vector)) AS score
WHERE score >= $min_score
OPTIONAL MATCH (m:SessionSummary {user_id: $user_id})-[:SUMMARIZES]->(s)
RETURN s {.*, embedding: null} AS turn, m IS NOT NULL AS compacted, score
ORDER BY score DESC
LIMIT $k
