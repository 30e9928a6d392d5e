// People written by cards become entities on first use: the Entity label and a UUID.
// The user themself (key 'me') is not an entity of their own memory.
MATCH (p:Person {user_id: $user_id})
WHERE p.id IS NULL AND p.key <> 'me'
SET p:Entity, p.id = randomUUID(), p.type = 'PERSON'
RETURN count(p) AS assigned
