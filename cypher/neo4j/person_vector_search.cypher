// The cards about some of the user's people, ranked by cosine to the query: the graph
// channel of recall ("my sister" -> Alice -> her cards, best match first).
// vector.similarity.cosine is (1 + cos) / 2: 2 * s - 1 is the cosine similarity FalkorDB's
// variant returns. Cards without an embedding are skipped (null sorts first in DESC).
// The WITH pins the traversal to start from the people (not from all the user's cards).
// $at: point-in-time recall (graphmem/history.py), null otherwise: only cards known
// at $at.known_at and then valid at $at.as_of; a card changed since is kept, and the
// caller checks it against the state archived for that time.
UNWIND $keys AS key
MATCH (p:Person {user_id: $user_id, key: key})
WITH p, key
MATCH (p)<-[:ABOUT]-(c:Card)
WHERE c.user_id = $user_id AND c.status IN $statuses AND c.embedding IS NOT NULL
  AND ($at IS NULL OR (coalesce(c.created_at, 0) <= $at.known_at
       AND (c.updated_at > $at.known_at
            OR (c.status <> 'forgotten'
                AND coalesce(c.valid_from, c.timestamp) <= $at.as_of
                AND coalesce(c.valid_to, $at.as_of + 1) > $at.as_of))))
WITH c, key, 2.0 * vector.similarity.cosine(c.embedding, $vector) - 1.0 AS similarity
ORDER BY similarity DESC, c.id
LIMIT $k
RETURN c.id AS id, key, similarity AS score
