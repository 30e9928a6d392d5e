// A session's running summary and its cursor (the last turn folded into it).
MATCH (m:SessionSummary {user_id: $user_id, id: $session_id})
RETURN m.text AS text, m.through AS through, m.extractor AS extractor,
       m.compactions AS compactions
