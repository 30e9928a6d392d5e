// The machine-readable half of a strategy card: the tool, the error it fixes, the
// original and fixed arguments (JSON); use counts start at 0 and are kept. A change of
// the card: the state it replaces is archived first (CardVersion), the card records
// change 'strategy' and stamps the user's next revision.
MATCH (c:Card {user_id: $user_id, id: $id})
MERGE (u:User {user_id: $user_id})
CREATE (v:CardVersion)-[:VERSION_OF]->(c)
SET v += c {.*, embedding: null, tenant: null, revision: null}
WITH c, u, coalesce(u.revision, 0) + 1 AS revision
SET u.revision = revision, c += $props, c.version = c.version + 1, c.updated_at = $now,
    c.revision = revision, c.change = 'strategy', c.decided_by = $decided_by,
    c.change_note = null,
    c.strategy_uses = coalesce(c.strategy_uses, 0),
    c.strategy_successes = coalesce(c.strategy_successes, 0)
RETURN c.id AS id
