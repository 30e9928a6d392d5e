// Approximate top-$k through the HNSW index (cards of large users, label AnnCard). The
// index spans all tenants and cannot pre-filter: the caller over-fetches ($k) and falls
// back to exact search when fewer than it needs come back. The score FalkorDB yields is
// the cosine distance: 1 - score is the cosine.
CALL db.idx.vector.queryNodes('AnnCard', 'embedding', $k, vecf32($vector))
YIELD node, score
WHERE node.user_id = $user_id AND node.status IN $statuses
RETURN node.id AS id, 1.0 - score AS score
