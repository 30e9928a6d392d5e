// Approximate top-k through the vector index card_embedding (cards of large users, label
// AnnCard). The index spans all tenants: over-fetch ($k) and filter; the caller falls back
// to exact search when fewer than it needs come back.
// Neo4j scores cosine as (1 + cos) / 2; 2 * score - 1 gives back the cosine similarity
// FalkorDB's variant returns.
// $at: point-in-time recall (graphmem/history.py), null otherwise: only cards known
// at $at.known_at and then valid at $at.as_of; a card changed since is kept, and the
// caller checks it against the state archived for that time.
CALL db.index.vector.queryNodes('card_embedding', $k, $vector)
YIELD node, score
WHERE node.user_id = $user_id AND node.status IN $statuses
  AND ($at IS NULL OR (coalesce(node.created_at, 0) <= $at.known_at
       AND (node.updated_at > $at.known_at
            OR (node.status <> 'forgotten'
                AND coalesce(node.valid_from, node.timestamp) <= $at.as_of
                AND coalesce(node.valid_to, $at.as_of + 1) > $at.as_of))))
RETURN node.id AS id, 2.0 * score - 1.0 AS score
