// Approximate top-k through the vector index card_embedding (cards of large users, label
// AnnCard). The index spans all tenants: over-fetch ($k) and filter; the caller falls back
// to exact search when fewer than it needs come back.
// Neo4j scores cosine as (1 + cos) / 2; 2 * score - 1 gives back the cosine similarity
// FalkorDB's variant returns.
CALL db.index.vector.queryNodes('card_embedding', $k, $vector)
YIELD node, score
WHERE node.user_id = $user_id AND node.status IN $statuses
RETURN node.id AS id, 2.0 * score - 1.0 AS score
