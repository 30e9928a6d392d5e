// Migration: active cards of one user that state the same fact about the same person and
// relationship (stored as separate cards before ids came from the identity), first
// stated first.
MATCH (c:Card {user_id: $user_id})
WHERE c.status = 'active' AND c.identity IS NOT NULL
WITH c ORDER BY c.timestamp, coalesce(c.created_at, 0), c.id
WITH c.identity AS identity, collect(c.id) AS ids
WHERE size(ids) > 1
RETURN identity, ids
