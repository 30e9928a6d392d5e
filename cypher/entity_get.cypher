// One entity by id, or by the id of an entity merged into it.
MATCH (e:Entity {user_id: $user_id})
WHERE e.id = $id OR $id IN coalesce(e.merged_ids, [])
OPTIONAL MATCH (:User {user_id: $user_id})-[k:KNOWS]->(e)
OPTIONAL MATCH (e)<-[:ABOUT|MENTIONS]-(c:Card)
RETURN e.id AS id, e.name AS name, coalesce(e.type, 'PERSON') AS type, e.description AS description,
       e.aliases AS aliases, k.relationship AS relationship, e.created_at AS created_at,
       count(DISTINCT c) AS cards
LIMIT 1
