// A user's cards, newest first, optionally by status; paged.
MATCH (c:Card {user_id: $user_id})
WHERE $statuses IS NULL OR c.status IN $statuses
RETURN c.id AS id
ORDER BY c.timestamp DESC, c.id
SKIP $skip LIMIT $limit
