// Tool calls per tool: how many, how many succeeded and failed, mean duration.
MATCH (c:ToolCall {user_id: $user_id})
WHERE $tool IS NULL OR c.tool = $tool
RETURN c.tool AS tool, count(c) AS calls,
       sum(CASE WHEN c.status = 'success' THEN 1 ELSE 0 END) AS succeeded,
       sum(CASE WHEN c.status IN ['failure', 'error', 'timeout'] THEN 1 ELSE 0 END) AS failed,
       avg(c.duration_ms) AS avg_duration_ms
ORDER BY calls DESC, tool
