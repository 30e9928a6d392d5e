// Record that cards were recalled (feeds forgetting). Not a content change: no version bump.
UNWIND $ids AS id
MATCH (c:Card {user_id: $user_id, id: id})
SET c.access_count = coalesce(c.access_count, 0) + 1, c.last_accessed = $now
RETURN count(c) AS touched
