// Full-text (RediSearch) over fact, backstory and person. The index spans all tenants;
// the clause on the user's token ($tenant, weight 0 so it does not score) keeps the
// search to the user's cards, and the WHERE still filters by user.
CALL db.idx.fulltext.queryNodes('Card', '(@tenant:' + $tenant + ')=>{$weight: 0.0} (' + $query + ')')
YIELD node, score
WHERE node.user_id = $user_id AND node.status IN $statuses
RETURN node.id AS id, score
ORDER BY score DESC
LIMIT $k
