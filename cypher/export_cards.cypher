// Export: one page of a user's cards (every status), with the person each is about, the
// evidence edges to its sources and whether it is in the vector index (label AnnCard);
// the vector only when asked for.
MATCH (c:Card {user_id: $user_id})
WITH c ORDER BY c.id SKIP $skip LIMIT $limit
OPTIONAL MATCH (c)-[:ABOUT]->(p:Person)
WITH c, collect(p.key) AS people
OPTIONAL MATCH (c)-[f:FROM]->(s:Source)
RETURN c {.*, embedding: null} AS props, people,
       collect({id: s.id, props: f {.*}}) AS sources, 'AnnCard' IN labels(c) AS ann,
       CASE WHEN $with_embeddings THEN c.embedding ELSE null END AS embedding
ORDER BY props.id
