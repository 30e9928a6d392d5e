// Which of $ids exist for the user, with what content, version, identity, when the fact
// was last stated and the sources already linked (a repeat links only new ones).
UNWIND $ids AS id
MATCH (c:Card {user_id: $user_id, id: id})
RETURN c.id AS id, c.content_hash AS content_hash, c.version AS version, c.status AS status,
       c.identity AS identity, coalesce(c.last_seen, c.timestamp) AS last_seen,
       [(c)-[:FROM]->(s:Source) | s.id] AS sources
