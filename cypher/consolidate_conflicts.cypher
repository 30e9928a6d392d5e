// (a)-[:CONFLICTS_WITH {reason}]->(b) and needs_revision on the listed cards (a version
// bump for each card flagged, its state before archived as a CardVersion). Idempotent:
// MERGE on the edge. FalkorDB computes the flags of a whole batch before writing, so a
// card must be listed in the needs_revision of one row per batch at most (the caller
// sees to it), else it is flagged twice.
// $rows: [{a, b, attribute, reason, decided_by, needs_revision: [ids]}]
UNWIND $rows AS r
MATCH (a:Card {user_id: $user_id, id: r.a})
MATCH (b:Card {user_id: $user_id, id: r.b})
WITH r, a, b, a.id IN r.needs_revision AND NOT coalesce(a.needs_revision, false) AS flag_a,
     b.id IN r.needs_revision AND NOT coalesce(b.needs_revision, false) AS flag_b
FOREACH (_ IN CASE WHEN flag_a THEN [1] ELSE [] END |
  CREATE (va:CardVersion)-[:VERSION_OF]->(a)
  SET va += a {.*, embedding: null, tenant: null, revision: null}
)
FOREACH (_ IN CASE WHEN flag_b THEN [1] ELSE [] END |
  CREATE (vb:CardVersion)-[:VERSION_OF]->(b)
  SET vb += b {.*, embedding: null, tenant: null, revision: null}
)
MERGE (a)-[x:CONFLICTS_WITH]->(b)
SET x.reason = r.reason, x.attribute = r.attribute, x.decided_at = $now,
    x.decided_by = r.decided_by,
    a.needs_revision = coalesce(a.needs_revision, false) OR flag_a,
    a.version = a.version + CASE WHEN flag_a THEN 1 ELSE 0 END,
    a.updated_at = CASE WHEN flag_a THEN $now ELSE a.updated_at END,
    a.change = CASE WHEN flag_a THEN 'flag' ELSE a.change END,
    a.decided_by = CASE WHEN flag_a THEN r.decided_by ELSE a.decided_by END,
    a.change_note = CASE WHEN flag_a THEN 'conflicts with ' + b.id + ': ' + r.reason
                         ELSE a.change_note END,
    b.needs_revision = coalesce(b.needs_revision, false) OR flag_b,
    b.version = b.version + CASE WHEN flag_b THEN 1 ELSE 0 END,
    b.updated_at = CASE WHEN flag_b THEN $now ELSE b.updated_at END,
    b.change = CASE WHEN flag_b THEN 'flag' ELSE b.change END,
    b.decided_by = CASE WHEN flag_b THEN r.decided_by ELSE b.decided_by END,
    b.change_note = CASE WHEN flag_b THEN 'conflicts with ' + a.id + ': ' + r.reason
                         ELSE b.change_note END
RETURN r.a AS a, r.b AS b, a.version AS a_version, b.version AS b_version
