// The cards about some of the user's people, ranked by cosine to the query: the graph
// channel of recall ("my sister" -> Alice -> her cards, best match first).
// The WITH pins the traversal to start from the people (not from all the user's cards).
// As in exact_vector_search: null scores (no embedding) sort last and the caller drops
// them; ties are ordered by the caller.
UNWIND $keys AS key
MATCH (p:Person {user_id: $user_id, key: key})
WITH p, key
MATCH (p)<-[:ABOUT]-(c:Card)
WHERE c.user_id = $user_id AND c.status IN $statuses
WITH c, key, vec.cosineDistance(c.embedding, vecf32($vector)) AS distance
ORDER BY distance ASC
LIMIT $k
RETURN c.id AS id, key, 1.0 - distance AS score
