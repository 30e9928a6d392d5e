// A person as an entity: the Person node cards are ABOUT (created if new, with the
// user's KNOWS edge), given the Entity label, a UUID id once and the description.
MERGE (u:User {user_id: $user_id})
  ON CREATE SET u.tenant = $tenant
MERGE (e:Person {user_id: $user_id, key: $key})
  ON CREATE SET e.name = $name, e.created_at = $now
SET e:Entity, e.id = coalesce(e.id, $id), e.type = $type,
    e.description = coalesce($description, e.description),
    e.created_at = coalesce(e.created_at, $now)
MERGE (u)-[k:KNOWS]->(e)
  ON CREATE SET k.since = $now, k.history = []
WITH e, k
OPTIONAL MATCH (e)<-[:ABOUT]-(c:Card)
RETURN e.id AS id, e.name AS name, coalesce(e.type, 'PERSON') AS type, e.description AS description,
       e.aliases AS aliases, k.relationship AS relationship, e.created_at AS created_at,
       count(DISTINCT c) AS cards
