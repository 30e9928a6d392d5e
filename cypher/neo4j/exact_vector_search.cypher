// Exact cosine over one user's cards: tenant-exact (never another user's card, always
// min(k, cards with an embedding) hits), linear in the user's cards.
// vector.similarity.cosine is (1 + cos) / 2: 2 * s - 1 is the cosine similarity FalkorDB's
// variant returns. Cards without an embedding are skipped (null sorts first in DESC).
MATCH (c:Card {user_id: $user_id})
WHERE c.status IN $statuses AND c.embedding IS NOT NULL
WITH c, 2.0 * vector.similarity.cosine(c.embedding, $vector) - 1.0 AS similarity
ORDER BY similarity DESC, c.id
LIMIT $k
RETURN c.id AS id, similarity AS score
