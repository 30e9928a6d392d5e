// Tasks by id with both directions of their dependencies ("blocks" is read off the
// stored BLOCKED_BY edges, never stored twice) and the cards they cite.
UNWIND $ids AS id
MATCH (t:Task {user_id: $user_id, id: id})
OPTIONAL MATCH (t)-[:BLOCKED_BY]->(b:Task {user_id: $user_id})
WITH t, collect(b.id) AS blocked_by
OPTIONAL MATCH (d:Task {user_id: $user_id})-[:BLOCKED_BY]->(t)
WITH t, blocked_by, collect(d.id) AS blocks
OPTIONAL MATCH (t)-[:CITES]->(c:Card {user_id: $user_id})
RETURN t {.*} AS task, blocked_by, blocks, collect(c.id) AS cites
