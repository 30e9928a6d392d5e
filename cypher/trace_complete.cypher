// Close a trace with its outcome. $props: {outcome, success, completed_at}.
MATCH (t:Trace {user_id: $user_id, id: $id})
SET t += $props
RETURN t.id AS id
