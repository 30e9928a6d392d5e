// Explorer's first view: the user's people (most active cards first) with the user's
// relationship and its history, card counts, and the ids of each person's first
// `$per_person` active cards by rank (importance plus recency, half-life $half_life ms).
MATCH (u:User {user_id: $user_id})-[k:KNOWS]->(p:Person {user_id: $user_id})
OPTIONAL MATCH (p)<-[:ABOUT]-(c:Card {user_id: $user_id})
WITH p, k, c,
     CASE WHEN c.status = 'active'
          THEN c.importance + 2.0 ^ (-1.0 * ($now - c.timestamp) / $half_life) END AS rank
ORDER BY rank DESC, c.timestamp DESC
WITH p, k, count(c) AS cards, collect(CASE WHEN rank IS NULL THEN NULL ELSE c.id END) AS active
OPTIONAL MATCH (p)-[:MAYBE_SAME]->(maybe:Person {user_id: $user_id})
WITH p, k, cards, active, collect(maybe.key) AS maybe_same
RETURN p.key AS key, p.name AS name, p.aliases AS aliases, k.relationship AS relationship,
       k.history AS history, cards, size(active) AS active, active[..$per_person] AS top,
       maybe_same
ORDER BY active DESC, name
LIMIT $limit
