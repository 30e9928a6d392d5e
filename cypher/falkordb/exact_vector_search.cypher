// Exact cosine over one user's cards: tenant-exact (never another user's card, always
// min(k, cards with an embedding) hits), linear in the user's cards (~1 us a card on
// 2 cores). vec.cosineDistance is 1 - cos: the score is the cosine.
// A card without embedding has a null distance, which sorts last: the caller drops
// null scores. Filtering nulls here, or breaking ties by id, costs ~15% more (10k cards:
// 12.0-12.6 vs 10.4-11.1 ms); the caller orders ties by id.
MATCH (c:Card {user_id: $user_id})
WHERE c.status IN $statuses
WITH c, vec.cosineDistance(c.embedding, vecf32($vector)) AS distance
ORDER BY distance ASC
LIMIT $k
RETURN c.id AS id, 1.0 - distance AS score
