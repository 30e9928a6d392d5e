// Migration: store each card's identity ($rows: [{id, identity}]). Not a content change.
UNWIND $rows AS r
MATCH (c:Card {user_id: $user_id, id: r.id})
SET c.identity = r.identity
RETURN count(c) AS cards
