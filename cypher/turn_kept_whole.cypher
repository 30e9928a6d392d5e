// The turn kept whole (tag 'turn', graphmem.models.TURN) beside a card read from part of
// it: the other card that holds the card's words. Forgetting the card forgets it too.
MATCH (c:Card {user_id: $user_id, id: $id})-[:FROM]->(s:Source)
MATCH (s)<-[:FROM]-(w:Card {user_id: $user_id})
WHERE w.id <> c.id AND 'turn' IN w.tags
RETURN DISTINCT w.id AS id, w.status AS status, w.forgotten_reason AS forgotten_reason
