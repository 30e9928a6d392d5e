// Import: cards with their vector (and vector-index label AnnCard when they had it), the
// person each is about and their evidence edges; each card stamped with the user's
// next revision.
// FalkorDB: vectors are written with vecf32().
// $rows: [{id, props, embedding, ann, people: [key], sources: [{id, props}]}]
UNWIND $rows AS r
MERGE (u:User {user_id: $user_id})
MERGE (c:Card {user_id: $user_id, id: r.id})
WITH r, c, u, coalesce(u.revision, 0) + 1 AS revision
SET u.revision = revision, c += r.props, c.tenant = $tenant, c.embedding = vecf32(r.embedding),
    c.revision = revision
FOREACH (_ IN CASE WHEN r.ann THEN [1] ELSE [] END | SET c:AnnCard)
FOREACH (key IN r.people |
  MERGE (p:Person {user_id: $user_id, key: key})
  MERGE (c)-[:ABOUT]->(p)
)
FOREACH (src IN r.sources |
  MERGE (s:Source {user_id: $user_id, id: src.id})
  MERGE (c)-[f:FROM]->(s)
  SET f += src.props
)
RETURN count(c) AS cards
