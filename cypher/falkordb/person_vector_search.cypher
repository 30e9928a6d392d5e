// The cards about some of the user's people, ranked by cosine to the query: the graph
// channel of recall ("my sister" -> Alice -> her cards, best match first).
UNWIND $keys AS key
MATCH (p:Person {user_id: $user_id, key: key})<-[:ABOUT]-(c:Card {user_id: $user_id})
WHERE c.status IN $statuses AND c.embedding IS NOT NULL
WITH c, key, vec.cosineDistance(c.embedding, vecf32($vector)) AS distance
ORDER BY distance ASC, c.id
LIMIT $k
RETURN c.id AS id, key, 1.0 - distance AS score
