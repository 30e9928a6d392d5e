// Record a tool call of a step. Its number (the step's calls before it) orders calls
// made within one millisecond.
MATCH (s:Step {user_id: $user_id, id: $step_id})
OPTIONAL MATCH (s)-[:HAS_TOOL_CALL]->(before:ToolCall {user_id: $user_id})
WITH s, count(before) AS made
CREATE (c:ToolCall {user_id: $user_id, id: $id})
SET c += $props, c.step_id = s.id, c.trace_id = s.trace_id, c.number = made
CREATE (s)-[:HAS_TOOL_CALL]->(c)
RETURN c {.*} AS call
