// (newer)-[:SUPERSEDES]->(older): the older card is kept, marked superseded, and its
// validity ends when the newer one starts. Guarded by the older card's version; only
// the applied rows come back; each older card is stamped with the user's next revision.
// The older card's state before is archived (CardVersion); it records the change.
// $rows: [{newer, older, older_version, attribute, reason, decided_by}]
UNWIND $rows AS r
MATCH (newer:Card {user_id: $user_id, id: r.newer})
MATCH (older:Card {user_id: $user_id, id: r.older})
WHERE older.status = 'active' AND older.version = r.older_version
MERGE (u:User {user_id: $user_id})
CREATE (v:CardVersion)-[:VERSION_OF]->(older)
SET v += older {.*, embedding: null, tenant: null, revision: null}
WITH r, newer, older, u, coalesce(u.revision, 0) + 1 AS revision
MERGE (newer)-[s:SUPERSEDES]->(older)
SET s.reason = r.reason, s.attribute = r.attribute, s.decided_at = $now,
    s.decided_by = r.decided_by,
    older.status = 'superseded',
    older.valid_to = CASE WHEN newer.timestamp >= coalesce(older.valid_from, older.timestamp)
                          THEN newer.timestamp
                          ELSE coalesce(older.valid_from, older.timestamp) END,
    older.version = older.version + 1, older.updated_at = $now, older.revision = revision,
    older.change = 'supersede', older.decided_by = r.decided_by,
    older.change_note = 'by ' + newer.id + ': ' + r.reason,
    u.revision = revision
RETURN older.id AS id
