// The user's people and how the user relates to them: what recall matches queries against.
MATCH (u:User {user_id: $user_id})-[k:KNOWS]->(p:Person)
WHERE p.user_id = $user_id
RETURN p.key AS key, p.name AS name, k.relationship AS relationship
