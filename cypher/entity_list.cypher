// A user's entities: people (the user themself left out; a person written by cards
// has no id until entity_assign_ids gives one) and the other kinds, of $type if given.
MATCH (e:Person {user_id: $user_id})
WHERE e.key <> 'me' AND ($type IS NULL OR $type = 'PERSON')
OPTIONAL MATCH (:User {user_id: $user_id})-[k:KNOWS]->(e)
OPTIONAL MATCH (e)<-[:ABOUT]-(c:Card)
RETURN e.id AS id, e.name AS name, 'PERSON' AS type, e.description AS description,
       e.aliases AS aliases, k.relationship AS relationship, e.created_at AS created_at,
       count(DISTINCT c) AS cards
UNION ALL
MATCH (e:Entity {user_id: $user_id})
WHERE NOT e:Person AND ($type IS NULL OR e.type = $type)
OPTIONAL MATCH (e)<-[:MENTIONS]-(c:Card)
RETURN e.id AS id, e.name AS name, e.type AS type, e.description AS description,
       e.aliases AS aliases, null AS relationship, e.created_at AS created_at,
       count(DISTINCT c) AS cards
