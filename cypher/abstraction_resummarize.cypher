// New summary texts for abstractions whose members changed outside consolidation (a hard
// forget: a summary must not keep quoting an erased card).
// $rows: [{id, summary, representative, size, ranked, reason}]
UNWIND $rows AS r
MATCH (a:Abstraction {user_id: $user_id, id: r.id})
SET a.summary = r.summary, a.summary_source = 'extractive', a.representative = r.representative,
    a.size = r.size, a.ranked = r.ranked, a.reason = r.reason, a.updated_at = $now
RETURN a.id AS id
