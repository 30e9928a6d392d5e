// A user's traces, newest first; of one session and/or one task when given.
MATCH (t:Trace {user_id: $user_id})
WHERE ($session_id IS NULL OR t.session_id = $session_id)
  AND ($task_id IS NULL OR t.task_id = $task_id)
RETURN t {.*, embedding: null} AS trace
ORDER BY t.started_at DESC, t.id
LIMIT $limit
