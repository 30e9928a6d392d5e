// Expand one person: the next page of their cards in the explorer's rank order
// (importance plus recency, as in explore_people), optionally of some statuses only.
MATCH (p:Person {user_id: $user_id, key: $key})<-[:ABOUT]-(c:Card {user_id: $user_id})
WHERE $statuses IS NULL OR c.status IN $statuses
WITH c, c.importance + 2.0 ^ (-1.0 * ($now - c.timestamp) / $half_life) AS rank
RETURN c.id AS id
ORDER BY rank DESC, c.timestamp DESC, c.id
SKIP $skip LIMIT $limit
