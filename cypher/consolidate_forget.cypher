// Soft forget faded cards, active or superseded (restorable with Memory.restore), guarded
// by version; only the applied rows come back; each stamped with the user's next
// revision. The state before is archived (CardVersion); the card records the change.
// $rows: [{id, version, reason, score, decided_by}]
UNWIND $rows AS r
MATCH (c:Card {user_id: $user_id, id: r.id})
WHERE c.status IN ['active', 'superseded'] AND c.version = r.version
MERGE (u:User {user_id: $user_id})
CREATE (v:CardVersion)-[:VERSION_OF]->(c)
SET v += c {.*, embedding: null, tenant: null, revision: null}
WITH r, c, u, coalesce(u.revision, 0) + 1 AS revision
SET u.revision = revision, c.status = 'forgotten', c.forgotten_reason = r.reason,
    c.forgotten_score = r.score,
    c.forgotten_at = $now, c.version = c.version + 1, c.updated_at = $now,
    c.revision = revision, c.change = 'forget', c.decided_by = r.decided_by,
    c.change_note = r.reason
RETURN c.id AS id
