// The abstractions that summarise one card (a hard forget rebuilds their summaries).
MATCH (a:Abstraction {user_id: $user_id})-[:SUMMARIZES]->(c:Card {user_id: $user_id, id: $id})
RETURN a.id AS id
