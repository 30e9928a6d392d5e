// Put up to $limit more of one user's cards into the vector index (label AnnCard) and
// route the user's vector searches through it. Run until it returns 0: each card costs an
// HNSW insertion (~3 ms on FalkorDB), so small batches keep the write lock short.
MATCH (u:User {user_id: $user_id})
SET u.ann = true
WITH u
MATCH (c:Card {user_id: $user_id})
WHERE NOT c:AnnCard AND c.embedding IS NOT NULL
WITH c
LIMIT $limit
SET c:AnnCard
RETURN count(c) AS labelled
