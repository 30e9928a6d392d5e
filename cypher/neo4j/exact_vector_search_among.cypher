// exact_vector_search restricted to the cards $ids (those that pass recall's filters, found
// in process by graphmem/recall/passages.py): a filter narrows the candidates before the
// top $k is taken, so matching cards ranked far down are still found.
// vector.similarity.cosine is (1 + cos) / 2: 2 * s - 1 is the cosine FalkorDB's variant returns.
UNWIND $ids AS id
MATCH (c:Card {user_id: $user_id, id: id})
WHERE c.embedding IS NOT NULL
WITH c, 2.0 * vector.similarity.cosine(c.embedding, $vector) - 1.0 AS similarity
ORDER BY similarity DESC, c.id
LIMIT $k
RETURN c.id AS id, similarity AS score
