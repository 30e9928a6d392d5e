// Export: every label set and outgoing relationship type among a user's nodes, so an
// export can refuse to run rather than silently drop something it does not know.
MATCH (n {user_id: $user_id})
OPTIONAL MATCH (n)-[r]->()
WITH labels(n) AS labels, collect(DISTINCT type(r)) AS types
RETURN labels, types
