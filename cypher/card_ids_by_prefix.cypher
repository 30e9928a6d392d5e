// Cards of one user whose id starts with $prefix (ids people type, like git's short
// hashes); a few are enough to tell a unique prefix from an ambiguous one.
MATCH (c:Card {user_id: $user_id})
WHERE c.id STARTS WITH $prefix
RETURN c.id AS id, c.fact AS fact, c.status AS status
ORDER BY id
LIMIT $limit
