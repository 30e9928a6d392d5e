// The vectors of one user's cards for recall's passages (graphmem/recall/passages.py), a
// page of $limit in id order after $after: filled in the background after the user's
// cards were read without them (recall_passages with $vectors false).
// toString(c.id), not c.id: see recall_passages (the index finds the user's cards alone).
MATCH (c:Card {user_id: $user_id})
WHERE toString(c.id) > $after
WITH c
ORDER BY c.id
LIMIT $limit
RETURN c.id AS id, c.embedding AS embedding
