// The abstractions that summarise any of the given cards.
UNWIND $ids AS id
MATCH (a:Abstraction {user_id: $user_id})-[:SUMMARIZES]->(c:Card {user_id: $user_id, id: id})
RETURN a.id AS id, a.summary AS summary, a.size AS size, c.id AS card
