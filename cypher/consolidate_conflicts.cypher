// (a)-[:CONFLICTS_WITH {reason}]->(b) and needs_revision on the listed cards (a version
// bump for each card flagged). Idempotent: MERGE on the edge.
// $rows: [{a, b, attribute, reason, decided_by, needs_revision: [ids]}]
UNWIND $rows AS r
MATCH (a:Card {user_id: $user_id, id: r.a})
MATCH (b:Card {user_id: $user_id, id: r.b})
MERGE (a)-[x:CONFLICTS_WITH]->(b)
SET x.reason = r.reason, x.attribute = r.attribute, x.decided_at = $now,
    x.decided_by = r.decided_by
WITH a, b, r, a.id IN r.needs_revision AND NOT coalesce(a.needs_revision, false) AS flag_a,
     b.id IN r.needs_revision AND NOT coalesce(b.needs_revision, false) AS flag_b
SET a.needs_revision = coalesce(a.needs_revision, false) OR flag_a,
    a.version = a.version + CASE WHEN flag_a THEN 1 ELSE 0 END,
    a.updated_at = CASE WHEN flag_a THEN $now ELSE a.updated_at END,
    b.needs_revision = coalesce(b.needs_revision, false) OR flag_b,
    b.version = b.version + CASE WHEN flag_b THEN 1 ELSE 0 END,
    b.updated_at = CASE WHEN flag_b THEN $now ELSE b.updated_at END
RETURN r.a AS a, r.b AS b, a.version AS a_version, b.version AS b_version
