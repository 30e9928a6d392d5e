// Import: task nodes (their edges come after, once every task exists).
// $rows: [{id, props}]
UNWIND $rows AS r
MERGE (t:Task {user_id: $user_id, id: r.id})
SET t += r.props
RETURN count(t) AS tasks
