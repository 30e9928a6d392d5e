// Put up to $limit more of one user's cards into the vector index (label AnnCard); run
// until it labels fewer than $limit. Each card costs an HNSW insertion on FalkorDB, so
// small batches keep the write lock short. The batch that finds the user's last
// unlabelled cards routes the user's vector searches through the index (u.ann), in the
// same query: searches stay complete meanwhile (exact until every card is in the index),
// and cards written from then on join it as written (upsert_cards reads u.ann).
MATCH (u:User {user_id: $user_id})
OPTIONAL MATCH (c:Card {user_id: $user_id})
WHERE NOT c:AnnCard AND c.embedding IS NOT NULL
WITH u, c
LIMIT $limit
FOREACH (_ IN CASE WHEN c IS NULL THEN [] ELSE [1] END | SET c:AnnCard)
WITH u, count(c) AS labelled
SET u.ann = CASE WHEN labelled < $limit THEN true ELSE coalesce(u.ann, false) END
RETURN labelled
