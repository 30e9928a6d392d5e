// Approximate top-$k through the HNSW index (cards of large users, label AnnCard). The
// index spans all tenants and cannot pre-filter: the caller over-fetches ($k) and falls
// back to exact search when fewer than it needs come back. The score FalkorDB yields is
// the cosine distance: 1 - score is the cosine.
// $at: point-in-time recall (graphmem/history.py), null otherwise: only cards known
// at $at.known_at and then valid at $at.as_of; a card changed since is kept, and the
// caller checks it against the state archived for that time.
CALL db.idx.vector.queryNodes('AnnCard', 'embedding', $k, vecf32($vector))
YIELD node, score
WHERE node.user_id = $user_id AND node.status IN $statuses
  AND ($at IS NULL OR (coalesce(node.created_at, 0) <= $at.known_at
       AND (node.updated_at > $at.known_at
            OR (node.status <> 'forgotten'
                AND coalesce(node.valid_from, node.timestamp) <= $at.as_of
                AND coalesce(node.valid_to, $at.as_of + 1) > $at.as_of))))
RETURN node.id AS id, 1.0 - score AS score
