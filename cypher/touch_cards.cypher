// Record that cards were recalled (feeds forgetting). Not a content change: no version bump.
// $users: [{user_id, rows: [{id, count, at}]}]: one interval's accesses of every user,
// batched by graphmem/recall/access.py into one write (one fsync, one write lock); each
// card is matched under its own user's id.
UNWIND $users AS u
UNWIND u.rows AS r
MATCH (c:Card {user_id: u.user_id, id: r.id})
SET c.access_count = coalesce(c.access_count, 0) + r.count,
    c.last_accessed = CASE WHEN c.last_accessed IS NULL OR r.at > c.last_accessed
                           THEN r.at ELSE c.last_accessed END
RETURN count(c) AS touched
