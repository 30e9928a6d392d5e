// Full-text (BM25-style) over fact, backstory and person; the index spans all tenants,
// so filter by user and return the user's best $k.
CALL db.idx.fulltext.queryNodes('Card', $query)
YIELD node, score
WHERE node.user_id = $user_id AND node.status IN $statuses
RETURN node.id AS id, score
ORDER BY score DESC
LIMIT $k
