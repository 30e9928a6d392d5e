// Export: each session's running summary and the turns it folded (SUMMARIZES).
MATCH (m:SessionSummary {user_id: $user_id})
OPTIONAL MATCH (m)-[:SUMMARIZES]->(s:Source {user_id: $user_id})
RETURN m {.*} AS props, collect(s.id) AS turns
ORDER BY props.id
