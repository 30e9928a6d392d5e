// Record a tool call of a step.
MATCH (s:Step {user_id: $user_id, id: $step_id})
CREATE (c:ToolCall {user_id: $user_id, id: $id})
SET c += $props, c.step_id = s.id, c.trace_id = s.trace_id
CREATE (s)-[:HAS_TOOL_CALL]->(c)
RETURN c {.*} AS call
