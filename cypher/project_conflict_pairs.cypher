// Pairs of a user's cards already recorded as conflicting (so a re-run skips them).
MATCH (a:Card {user_id: $user_id})-[:CONFLICTS_WITH]->(b:Card {user_id: $user_id})
RETURN a.id AS a, b.id AS b
