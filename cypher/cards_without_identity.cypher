// Migration: one user's cards without an identity, with the fields it is derived from.
MATCH (c:Card {user_id: $user_id})
WHERE c.identity IS NULL
RETURN c.id AS id, c.fact AS fact, c.person AS person, c.relationship AS relationship
