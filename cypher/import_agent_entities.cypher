// Import: entities other than people. $rows: [{props}] (props carry key and id).
UNWIND $rows AS r
MERGE (e:Entity {user_id: $user_id, key: r.props.key})
SET e += r.props
RETURN count(e) AS entities
