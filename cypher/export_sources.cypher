// Export: a user's source turns/passages and the session or document each is in. A
// turn's embedding (session search) is derived data and stays out of exports.
MATCH (s:Source {user_id: $user_id})
OPTIONAL MATCH (s)-[:IN]->(g)
RETURN s {.*, embedding: null} AS props, collect({label: head(labels(g)), id: g.id}) AS containers
ORDER BY props.id
