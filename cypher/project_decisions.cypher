// The conflict decisions recorded for a user: SUPERSEDES and CONFLICTS_WITH edges with why.
MATCH (a:Card {user_id: $user_id})-[r:SUPERSEDES|CONFLICTS_WITH]->(b:Card {user_id: $user_id})
RETURN type(r) AS type, a.id AS from_card, b.id AS to_card, r.attribute AS attribute,
       r.reason AS reason, r.decided_at AS decided_at, r.decided_by AS decided_by
ORDER BY type, from_card, to_card
