// Turns most similar to the query: exact cosine over the user's live, embedded turns
// (one session when $session_id is given), at least $min_score. Tenant-exact.
// vector.similarity.cosine is (1 + cos) / 2: 2 * s - 1 is the cosine.
MATCH (s:Source {user_id: $user_id})
WHERE s.embedding IS NOT NULL AND s.deleted_at IS NULL AND s.session_id IS NOT NULL
  AND ($session_id IS NULL OR s.session_id = $session_id)
WITH s, 2.0 * vector.similarity.cosine(s.embedding, $vector) - 1.0 AS score
WHERE score >= $min_score
OPTIONAL MATCH (m:SessionSummary {user_id: $user_id})-[:SUMMARIZES]->(s)
RETURN s {.*, embedding: null} AS turn, m IS NOT NULL AS compacted, score
ORDER BY score DESC
LIMIT $k
