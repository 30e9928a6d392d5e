// Import: reasoning traces with their steps and tool calls, the task embedded anew, and
// the task each works on when the user has it.
// $rows: [{id, props, embedding, task, steps: [{props, calls: [props]}]}]
UNWIND $rows AS r
MERGE (t:Trace {user_id: $user_id, id: r.id})
SET t += r.props, t.embedding = r.embedding
FOREACH (s IN r.steps |
  MERGE (x:Step {user_id: $user_id, id: s.props.id})
  SET x += s.props
  MERGE (t)-[:HAS_STEP]->(x)
  FOREACH (c IN s.calls |
    MERGE (y:ToolCall {user_id: $user_id, id: c.id})
    SET y += c
    MERGE (x)-[:HAS_TOOL_CALL]->(y)
  )
)
WITH t, r
OPTIONAL MATCH (k:Task {user_id: $user_id, id: r.task})
FOREACH (_ IN CASE WHEN k IS NULL THEN [] ELSE [1] END | MERGE (t)-[:WORKS_ON]->(k))
RETURN count(t) AS traces
