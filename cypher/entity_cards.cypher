// Cards about an entity (a person) or mentioning it, newest first.
MATCH (e:Entity {user_id: $user_id, id: $id})
MATCH (c:Card {user_id: $user_id})-[:ABOUT|MENTIONS]->(e)
WITH DISTINCT c
RETURN c.id AS id
ORDER BY c.timestamp DESC, id
