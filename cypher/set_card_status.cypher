// Soft forget / restore / supersede bookkeeping, guarded by the card's version.
MATCH (c:Card {user_id: $user_id, id: $id})
WHERE $expected_version IS NULL OR c.version = $expected_version
SET c += $props, c.version = c.version + 1, c.updated_at = $now
RETURN c.version AS version
