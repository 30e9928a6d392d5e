// Traces whose task is most like the query: exact cosine over the user's traces (only
// successful ones when $success_only), at least $min_score.
MATCH (t:Trace {user_id: $user_id})
WHERE t.embedding IS NOT NULL AND (NOT $success_only OR t.success = true)
WITH t, 1.0 - vec.cosineDistance(t.embedding, vecf32($vector)) AS score
WHERE score >= $min_score
RETURN t {.*, embedding: null} AS trace, score
ORDER BY score DESC
LIMIT $k
