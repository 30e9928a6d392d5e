// Which of $ids exist for the user, with what content and version.
UNWIND $ids AS id
MATCH (c:Card {user_id: $user_id, id: id})
RETURN c.id AS id, c.content_hash AS content_hash, c.version AS version, c.status AS status
