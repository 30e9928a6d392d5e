// What the explorer draws of each card (not its vector, source or backstory): caption,
// status, times, weight, and the person it is about.
UNWIND $ids AS id
MATCH (c:Card {user_id: $user_id, id: id})
OPTIONAL MATCH (c)-[:ABOUT]->(p:Person {user_id: $user_id})
RETURN c.id AS id, c.fact AS fact, c.status AS status, c.timestamp AS timestamp,
       c.importance AS importance, c.category AS category,
       c.needs_revision AS needs_revision, p.key AS person_key, p.name AS person
