// Exact cosine over one user's cards: tenant-exact (never another user's card, always
// min(k, cards) hits), linear in the user's cards (~13 ms at 10k).
MATCH (c:Card {user_id: $user_id})
WHERE c.status IN $statuses
WITH c, vec.cosineDistance(c.embedding, vecf32($vector)) AS distance
ORDER BY distance ASC
LIMIT $k
RETURN c.id AS id, 1.0 - distance AS score
