// Create one task with its blockers ($blocked_ids) and cited cards ($card_ids), all or
// nothing: no row back when an id is not this user's (the caller says which).
OPTIONAL MATCH (b:Task {user_id: $user_id}) WHERE b.id IN $blocked_ids
WITH collect(DISTINCT b) AS blockers
OPTIONAL MATCH (c:Card {user_id: $user_id}) WHERE c.id IN $card_ids
WITH blockers, collect(DISTINCT c) AS cards
WHERE size(blockers) = size($blocked_ids) AND size(cards) = size($card_ids)
CREATE (t:Task {user_id: $user_id, id: $id})
SET t += $props, t.version = 1, t.created_at = $now, t.updated_at = $now
FOREACH (b IN blockers | CREATE (t)-[:BLOCKED_BY]->(b))
FOREACH (c IN cards | CREATE (t)-[:CITES]->(c))
RETURN t.id AS id, t.version AS version
