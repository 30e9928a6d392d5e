// Export: the user node's own properties (e.g. the task-graph version).
MATCH (u:User {user_id: $user_id})
RETURN u {.*} AS props
