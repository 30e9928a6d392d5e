// The stored vectors of some of a user's cards (a list of floats on both backends).
UNWIND $ids AS id
MATCH (c:Card {user_id: $user_id, id: id})
RETURN c.id AS id, c.embedding AS embedding
