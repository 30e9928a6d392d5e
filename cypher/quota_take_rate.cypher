// Take one write from the user's rate limit: compare-and-set of the rate timestamp
// ($expected: the value read, -1 for none). No row back when another writer moved it.
// The SET before the guard takes the user's write lock first (Neo4j).
MERGE (u:User {user_id: $user_id})
  ON CREATE SET u.tenant = $tenant
SET u.rate_checked = true
WITH u
WHERE coalesce(u.rate_tat, -1) = $expected
SET u.rate_tat = $tat
RETURN u.rate_tat AS tat
