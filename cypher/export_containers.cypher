// Export: the sessions and documents a user's sources belong to.
MATCH (g:Session {user_id: $user_id})
RETURN 'session' AS type, g {.*} AS props
UNION ALL
MATCH (g:Document {user_id: $user_id})
RETURN 'document' AS type, g {.*} AS props
