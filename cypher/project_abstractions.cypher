// A user's abstractions with their member cards (any status; the forgotten ones also
// apart: they stay members) and stored centroid.
// (Aggregating in WITH before RETURN is ~10x faster on FalkorDB than in RETURN.)
MATCH (a:Abstraction {user_id: $user_id})
OPTIONAL MATCH (a)-[:SUMMARIZES]->(c:Card)
WITH a, collect(c.id) AS members,
     collect(CASE WHEN c.status = 'forgotten' THEN c.id END) AS forgotten
RETURN a.id AS id, a.summary AS summary, a.representative AS representative,
       a.size AS size, a.centroid AS centroid, a.ranked AS ranked, members, forgotten
ORDER BY id
