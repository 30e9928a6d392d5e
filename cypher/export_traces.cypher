// Export: reasoning traces (task embedding left out: derived, import embeds anew), one
// row per (step, tool call), and the task each works on.
MATCH (t:Trace {user_id: $user_id})
OPTIONAL MATCH (t)-[:HAS_STEP]->(s:Step {user_id: $user_id})
OPTIONAL MATCH (s)-[:HAS_TOOL_CALL]->(c:ToolCall {user_id: $user_id})
OPTIONAL MATCH (t)-[:WORKS_ON]->(k:Task {user_id: $user_id})
RETURN t {.*, embedding: null} AS trace, s {.*} AS step, c {.*} AS call, k.id AS task
