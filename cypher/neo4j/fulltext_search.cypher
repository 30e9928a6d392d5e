// Full-text (Lucene BM25) over fact, backstory and person (index card_text, english
// analyzer); the index spans all tenants, so filter by user and return the user's best $k.
// $query is Lucene syntax built by Neo4jStore.fulltext_query.
CALL db.index.fulltext.queryNodes('card_text', $query)
YIELD node, score
WHERE node.user_id = $user_id AND node.status IN $statuses
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $k
