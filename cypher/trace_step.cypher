// Add the next step to a trace: the trace's step counter moves and numbers the step in
// the same write (the SET before it takes the trace's write lock first on Neo4j).
MATCH (t:Trace {user_id: $user_id, id: $trace_id})
SET t.touched_at = $now
SET t.step_count = coalesce(t.step_count, 0) + 1
// FalkorDB: a SET reads the values before an earlier SET of the same query part.
WITH t
CREATE (s:Step {user_id: $user_id, id: $id})
SET s += $props, s.trace_id = t.id, s.number = t.step_count
CREATE (t)-[:HAS_STEP]->(s)
RETURN s {.*} AS step
