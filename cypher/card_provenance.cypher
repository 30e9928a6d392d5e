// Everything about where a card came from and what became of it.
MATCH (c:Card {user_id: $user_id, id: $id})
OPTIONAL MATCH (c)-[:ABOUT]->(p:Person)
OPTIONAL MATCH (:User {user_id: $user_id})-[k:KNOWS]->(p)
OPTIONAL MATCH (c)-[:SUPERSEDES]->(older:Card)
OPTIONAL MATCH (newer:Card)-[:SUPERSEDES]->(c)
OPTIONAL MATCH (c)-[x:CONFLICTS_WITH]-(other:Card)
OPTIONAL MATCH (a:Abstraction)-[:SUMMARIZES]->(c)
RETURN p.name AS person, k.relationship AS relationship, k.history AS relationship_history,
       collect(DISTINCT older.id) AS supersedes, collect(DISTINCT newer.id) AS superseded_by,
       collect(DISTINCT {id: other.id, reason: x.reason}) AS conflicts,
       collect(DISTINCT {id: a.id, summary: a.summary}) AS abstractions
