// Export: edges between a user's cards: what superseded what, and conflicts.
MATCH (a:Card {user_id: $user_id})-[r:SUPERSEDES]->(b:Card {user_id: $user_id})
RETURN 'supersedes' AS type, a.id AS source, b.id AS target, r {.*} AS props
UNION ALL
MATCH (a:Card {user_id: $user_id})-[r:CONFLICTS_WITH]->(b:Card {user_id: $user_id})
RETURN 'conflicts_with' AS type, a.id AS source, b.id AS target, r {.*} AS props
