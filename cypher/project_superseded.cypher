// A user's superseded cards as forgetting sees them (consolidation's projection holds the
// active ones): what fades once its successor has held the value long enough.
MATCH (c:Card {user_id: $user_id})
WHERE c.status = 'superseded'
RETURN c.id AS id, c.fact AS fact, c.person AS person, c.timestamp AS timestamp,
       c.valid_to AS valid_to, c.importance AS importance, c.emotion AS emotion,
       c.reward AS reward, c.access_count AS access_count, c.last_accessed AS last_accessed,
       c.version AS version, c.category AS category, c.status AS status
