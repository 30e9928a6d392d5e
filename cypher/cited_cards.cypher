// Cards that a user's open tasks cite: forgetting keeps them.
MATCH (t:Task {user_id: $user_id})-[:CITES]->(c:Card {user_id: $user_id})
WHERE t.status IN $open
RETURN DISTINCT c.id AS id
