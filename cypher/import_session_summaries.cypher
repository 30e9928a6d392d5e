// Import: session summaries, OF their session, SUMMARIZES the turns they folded.
// $rows: [{id, props, turns: [source ids]}]
UNWIND $rows AS r
MATCH (g:Session {user_id: $user_id, id: r.id})
MERGE (m:SessionSummary {user_id: $user_id, id: r.id})
SET m += r.props
MERGE (m)-[:OF]->(g)
WITH m, r
OPTIONAL MATCH (s:Source {user_id: $user_id})-[:IN]->(:Session {user_id: $user_id, id: r.id})
WHERE s.id IN r.turns
FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END | MERGE (m)-[:SUMMARIZES]->(s))
RETURN count(DISTINCT m) AS summaries
