// Full-text (RediSearch) over fact, backstory and person. The index spans all tenants;
// the clause on the user's token ($tenant, weight 0 so it does not score) keeps the
// search to the user's cards, and the WHERE still filters by user.
// $at: point-in-time recall (graphmem/history.py), null otherwise: only cards known
// at $at.known_at and then valid at $at.as_of; a card changed since is kept, and the
// caller checks it against the state archived for that time.
CALL db.idx.fulltext.queryNodes('Card', '(@tenant:' + $tenant + ')=>{$weight: 0.0} (' + $query + ')')
YIELD node, score
WHERE node.user_id = $user_id AND node.status IN $statuses
  AND ($at IS NULL OR (coalesce(node.created_at, 0) <= $at.known_at
       AND (node.updated_at > $at.known_at
            OR (node.status <> 'forgotten'
                AND coalesce(node.valid_from, node.timestamp) <= $at.as_of
                AND coalesce(node.valid_to, $at.as_of + 1) > $at.as_of))))
RETURN node.id AS id, score
ORDER BY score DESC
LIMIT $k
