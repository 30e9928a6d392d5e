// Erase a user: every node carrying their user_id, with its relationships. Other users'
// nodes are never matched (every node of graphmem carries its user_id).
MATCH (n {user_id: $user_id})
DETACH DELETE n
RETURN count(n) AS deleted
