// Soft forget / restore / supersede bookkeeping, guarded by the card's version; stamps
// the user's next revision (recall's vector mirror reads what changed since).
MATCH (c:Card {user_id: $user_id, id: $id})
WHERE $expected_version IS NULL OR c.version = $expected_version
MERGE (u:User {user_id: $user_id})
WITH c, u, coalesce(u.revision, 0) + 1 AS revision
SET u.revision = revision, c += $props, c.version = c.version + 1, c.updated_at = $now,
    c.revision = revision
RETURN c.version AS version
