// Explorer's history view: a user's most recent supersession and conflict decisions.
MATCH (a:Card {user_id: $user_id})-[r:SUPERSEDES|CONFLICTS_WITH]->(b:Card {user_id: $user_id})
RETURN type(r) AS type, a.id AS source, b.id AS target, r.reason AS reason,
       r.decided_at AS decided_at, r.decided_by AS decided_by
ORDER BY decided_at DESC, source, target
LIMIT $limit
