// What recall's vector mirror (graphmem/recall/mirror.py) holds of one user's cards: those
// stamped after revision $since (every card with $since = -1; cards written before
// stamping existed count as revision 0), a page of $limit in id order after $after,
// with status, vector and the people each card is about.
// toString(c.id), not c.id: FalkorDB would answer `c.id > $after` from the index as a range
// over every tenant's card ids before keeping the user's, which grew a page's read
// with the whole store (0.7 s at 300k cards, 10x 30k);
// this way the index finds the user's cards alone and the page filters them.
MATCH (c:Card {user_id: $user_id})
WHERE coalesce(c.revision, 0) > $since AND toString(c.id) > $after
WITH c
ORDER BY c.id
LIMIT $limit
RETURN c.id AS id, c.status AS status, c.embedding AS embedding,
       [(c)-[:ABOUT]->(p:Person) | p.key] AS people
