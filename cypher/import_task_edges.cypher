// Import: what blocks each task and the cards it cites. $rows: [{id, blocked_by, cites}]
UNWIND $rows AS r
MATCH (t:Task {user_id: $user_id, id: r.id})
OPTIONAL MATCH (b:Task {user_id: $user_id}) WHERE b.id IN r.blocked_by
WITH t, r, collect(b) AS blockers
OPTIONAL MATCH (c:Card {user_id: $user_id}) WHERE c.id IN r.cites
WITH t, blockers, collect(c) AS cards
FOREACH (b IN blockers | MERGE (t)-[:BLOCKED_BY]->(b))
FOREACH (c IN cards | MERGE (t)-[:CITES]->(c))
RETURN count(t) AS tasks
