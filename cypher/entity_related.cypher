// Entities within $depth relations (either direction, at most 3) of an entity, through
// relations of $type only when given.
MATCH (a:Entity {user_id: $user_id, id: $id})
MATCH path = (a)-[:RELATED_TO*1..3]-(e:Entity {user_id: $user_id})
WHERE e <> a AND length(path) <= $depth
  AND ($type IS NULL OR all(r IN relationships(path) WHERE r.type = $type))
WITH DISTINCT e
OPTIONAL MATCH (:User {user_id: $user_id})-[k:KNOWS]->(e)
OPTIONAL MATCH (e)<-[:ABOUT|MENTIONS]-(c:Card)
RETURN e.id AS id, e.name AS name, coalesce(e.type, 'PERSON') AS type,
       e.description AS description, e.aliases AS aliases, k.relationship AS relationship,
       e.created_at AS created_at, count(DISTINCT c) AS cards
ORDER BY name
