// Stored cards with one of $identities (same fact, person and relationship): how a repeat
// finds a card stored under an older id scheme. Oldest first, so the first is the card.
UNWIND $identities AS identity
MATCH (c:Card {user_id: $user_id, identity: identity})
RETURN c.id AS id, c.content_hash AS content_hash, c.version AS version, c.status AS status,
       c.identity AS identity, coalesce(c.last_seen, c.timestamp) AS last_seen,
       [(c)-[:FROM]->(s:Source) | s.id] AS sources
ORDER BY coalesce(c.created_at, 0), c.id
