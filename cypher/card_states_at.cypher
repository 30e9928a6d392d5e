// The state each of $ids had at $known_at, for cards changed since then: the archived
// version with the highest number among those that began at or before it. Cards with
// no such version did not exist yet at $known_at (no row).
UNWIND $ids AS id
MATCH (v:CardVersion {user_id: $user_id, id: id})
WHERE v.updated_at <= $known_at
WITH id, max(v.version) AS version
MATCH (v:CardVersion {user_id: $user_id, id: id, version: version})
RETURN id, v {.*} AS card
