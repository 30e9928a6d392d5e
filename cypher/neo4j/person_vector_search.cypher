// The cards about some of the user's people, ranked by cosine to the query: the graph
// channel of recall ("my sister" -> Alice -> her cards, best match first).
// vector.similarity.cosine is (1 + cos) / 2: 2 * s - 1 is the cosine similarity FalkorDB's
// variant returns. Cards without an embedding are skipped (null sorts first in DESC).
// The WITH pins the traversal to start from the people (not from all the user's cards).
UNWIND $keys AS key
MATCH (p:Person {user_id: $user_id, key: key})
WITH p, key
MATCH (p)<-[:ABOUT]-(c:Card)
WHERE c.user_id = $user_id AND c.status IN $statuses AND c.embedding IS NOT NULL
WITH c, key, 2.0 * vector.similarity.cosine(c.embedding, $vector) - 1.0 AS similarity
ORDER BY similarity DESC, c.id
LIMIT $k
RETURN c.id AS id, key, similarity AS score
