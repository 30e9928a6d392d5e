// Export: one page of a user's archived card versions (graphmem/history.py), including
// those of erased cards (their text is gone already).
MATCH (v:CardVersion {user_id: $user_id})
WITH v ORDER BY v.id, v.version SKIP $skip LIMIT $limit
RETURN v {.*} AS props
