// Import: people and the user's KNOWS edge to each (when the export had one).
// $rows: [{key, props, knows}]
UNWIND $rows AS r
MERGE (u:User {user_id: $user_id})
MERGE (p:Person {user_id: $user_id, key: r.key})
SET p += r.props
// A person the entity API has seen carries its entity id: it is an Entity again.
FOREACH (_ IN CASE WHEN r.props.id IS NULL THEN [] ELSE [1] END | SET p:Entity)
FOREACH (_ IN CASE WHEN r.knows IS NULL THEN [] ELSE [1] END |
  MERGE (u)-[k:KNOWS]->(p)
  SET k += r.knows
)
RETURN count(p) AS people
