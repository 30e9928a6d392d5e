// The user's people, how the user relates to them and since when (the time of the card
// that said so): what recall matches queries against.
MATCH (u:User {user_id: $user_id})-[k:KNOWS]->(p:Person)
WHERE p.user_id = $user_id
RETURN p.key AS key, p.name AS name, k.relationship AS relationship, k.since AS since
