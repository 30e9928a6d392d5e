// Export: a user's abstractions with the cards each summarises.
MATCH (a:Abstraction {user_id: $user_id})
OPTIONAL MATCH (a)-[m:SUMMARIZES]->(c:Card)
RETURN a {.*, embedding: null} AS props,
       collect({id: c.id, props: m {.*}}) AS members,
       CASE WHEN $with_embeddings THEN a.embedding ELSE null END AS embedding
ORDER BY props.id
