// Import: MAYBE_SAME review links between people. $rows: [{source, target, props}]
UNWIND $rows AS r
MATCH (m:Person {user_id: $user_id, key: r.source})
MATCH (p:Person {user_id: $user_id, key: r.target})
MERGE (m)-[s:MAYBE_SAME]->(p)
SET s += r.props
RETURN count(s) AS links
