// Soft forget / restore / supersede bookkeeping, guarded by the card's version; stamps
// the user's next revision (recall's passages read what changed since). The state it
// replaces is archived first (CardVersion); the card records $change, $decided_by, $note.
MATCH (c:Card {user_id: $user_id, id: $id})
WHERE $expected_version IS NULL OR c.version = $expected_version
MERGE (u:User {user_id: $user_id})
CREATE (v:CardVersion)-[:VERSION_OF]->(c)
SET v += c {.*, embedding: null, tenant: null, revision: null}
WITH c, u, coalesce(u.revision, 0) + 1 AS revision
SET u.revision = revision, c += $props, c.version = c.version + 1, c.updated_at = $now,
    c.revision = revision, c.change = $change, c.decided_by = $decided_by,
    c.change_note = $note
RETURN c.version AS version
