// A trace with its steps and their tool calls, one row per (step, call).
MATCH (t:Trace {user_id: $user_id, id: $id})
OPTIONAL MATCH (t)-[:HAS_STEP]->(s:Step {user_id: $user_id})
OPTIONAL MATCH (s)-[:HAS_TOOL_CALL]->(c:ToolCall {user_id: $user_id})
RETURN t {.*, embedding: null} AS trace, s {.*} AS step, c {.*} AS call
