// A user's people: how the user relates to them (and used to, and since when), and how
// many cards.
MATCH (u:User {user_id: $user_id})-[k:KNOWS]->(p:Person {user_id: $user_id})
OPTIONAL MATCH (p)<-[:ABOUT]-(c:Card {user_id: $user_id})
WITH p, k, count(c) AS cards,
     sum(CASE WHEN c.status = 'active' THEN 1 ELSE 0 END) AS active
OPTIONAL MATCH (p)-[:MAYBE_SAME]->(maybe:Person {user_id: $user_id})
WITH p, k, cards, active, collect(maybe.name) AS maybe_same
RETURN p.key AS key, p.name AS name, p.aliases AS aliases, k.relationship AS relationship,
       k.history AS history, k.since AS since, cards, active, maybe_same
ORDER BY active DESC, name
