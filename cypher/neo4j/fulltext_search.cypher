// Full-text (Lucene BM25) over fact, backstory and person (index card_search, english
// analyzer). The index spans all tenants; the required clause on the user's token
// ($tenant, boost 0 so it does not score) keeps the search to the user's cards, and the
// WHERE still filters by user. $query is Lucene syntax built by Neo4jStore.fulltext_query.
CALL db.index.fulltext.queryNodes('card_search', '+tenant:' + $tenant + '^0 +(' + $query + ')')
YIELD node, score
WHERE node.user_id = $user_id AND node.status IN $statuses
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $k
