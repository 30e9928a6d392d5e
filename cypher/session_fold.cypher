// Fold turns into a session's summary: new text, the cursor moved to $through, each
// folded turn SUMMARIZES-linked (once: a turn is folded by exactly one compaction).
// Compare-and-set on the cursor ($expected: the cursor read, -1 for none): no row back
// when another compaction moved it meanwhile, and nothing is written then.
// The SET before the guard takes the summary's write lock first (Neo4j).
MATCH (g:Session {user_id: $user_id, id: $session_id})
MERGE (m:SessionSummary {user_id: $user_id, id: $session_id})
  ON CREATE SET m.session_id = $session_id, m.created_at = $now, m.compactions = 0
SET m.touched_at = $now
WITH g, m
WHERE coalesce(m.through, -1) = $expected
SET m.text = $text, m.through = $through, m.extractor = $extractor, m.updated_at = $now,
    m.compactions = m.compactions + 1,
    m.card_ids = coalesce(m.card_ids, []) + [i IN $card_ids WHERE NOT i IN coalesce(m.card_ids, [])]
MERGE (m)-[:OF]->(g)
WITH g, m
OPTIONAL MATCH (s:Source {user_id: $user_id})-[:IN]->(g)
WHERE s.id IN $ids
FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END | MERGE (m)-[:SUMMARIZES]->(s))
RETURN DISTINCT m.through AS through
