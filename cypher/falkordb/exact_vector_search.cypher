// Exact cosine over one user's cards: tenant-exact (never another user's card, always
// min(k, cards with an embedding) hits), linear in the user's cards (p95 14 ms at 10k,
// 53 ms at 40k on 2 cores). vec.cosineDistance is 1 - cos: the score is the cosine.
// A card without embedding has no distance: testing the distance is cheaper than testing
// the property (12 vs 14.6 ms for 10k cards).
MATCH (c:Card {user_id: $user_id})
WHERE c.status IN $statuses
WITH c, vec.cosineDistance(c.embedding, vecf32($vector)) AS distance
WHERE distance IS NOT NULL
WITH c, distance
ORDER BY distance ASC, c.id
LIMIT $k
RETURN c.id AS id, 1.0 - distance AS score
