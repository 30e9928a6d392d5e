// What a user stores: cards (any status) and bytes of text (each node's size, written
// with it; the text's length for nodes written before sizes were kept).
OPTIONAL MATCH (c:Card {user_id: $user_id})
WITH count(c) AS cards,
     sum(coalesce(c.size, size(coalesce(c.fact, '')) + size(coalesce(c.backstory, '')))) AS card_bytes
OPTIONAL MATCH (s:Source {user_id: $user_id})
WITH cards, card_bytes, sum(coalesce(s.size, size(coalesce(s.text, '')))) AS source_bytes
OPTIONAL MATCH (t:Trace {user_id: $user_id})
WITH cards, card_bytes, source_bytes, sum(coalesce(t.size, 0)) AS trace_bytes
OPTIONAL MATCH (x:Step {user_id: $user_id})
WITH cards, card_bytes, source_bytes, trace_bytes, sum(coalesce(x.size, 0)) AS step_bytes
OPTIONAL MATCH (k:ToolCall {user_id: $user_id})
WITH cards, card_bytes, source_bytes, trace_bytes, step_bytes, sum(coalesce(k.size, 0)) AS call_bytes
RETURN cards, toInteger(card_bytes + source_bytes + trace_bytes + step_bytes + call_bytes) AS bytes
