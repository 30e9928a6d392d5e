// Export: a user's people with the user's KNOWS edge (relationship, since, history).
MATCH (p:Person {user_id: $user_id})
OPTIONAL MATCH (:User {user_id: $user_id})-[k:KNOWS]->(p)
RETURN p {.*} AS props, k {.*} AS knows
ORDER BY p.key
