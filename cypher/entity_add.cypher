// An entity of a kind other than person (organisation, place, event, thing...): one
// per (type, name) for a user; the description is updated when given.
MERGE (u:User {user_id: $user_id})
  ON CREATE SET u.tenant = $tenant
MERGE (e:Entity {user_id: $user_id, key: $key})
  ON CREATE SET e.id = $id, e.name = $name, e.type = $type, e.created_at = $now
SET e.description = coalesce($description, e.description)
WITH e
OPTIONAL MATCH (:User {user_id: $user_id})-[k:KNOWS]->(e)
OPTIONAL MATCH (e)<-[:MENTIONS]-(c:Card)
RETURN e.id AS id, e.name AS name, coalesce(e.type, 'PERSON') AS type, e.description AS description,
       e.aliases AS aliases, k.relationship AS relationship, e.created_at AS created_at,
       count(DISTINCT c) AS cards
