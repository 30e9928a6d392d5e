// Delete one task and its edges (its dependants are no longer blocked by it), guarded by
// its version ($expected_version; null = any). No row back = no such task or stale.
MATCH (t:Task {user_id: $user_id, id: $id})
WHERE $expected_version IS NULL OR t.version = $expected_version
DETACH DELETE t
RETURN $id AS id
