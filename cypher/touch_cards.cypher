// Record that cards were recalled (feeds forgetting). Not a content change: no version bump.
// $rows: [{id, count, at}], accesses batched by graphmem/recall/access.py.
UNWIND $rows AS r
MATCH (c:Card {user_id: $user_id, id: r.id})
SET c.access_count = coalesce(c.access_count, 0) + r.count,
    c.last_accessed = CASE WHEN c.last_accessed IS NULL OR r.at > c.last_accessed
                           THEN r.at ELSE c.last_accessed END
RETURN count(c) AS touched
