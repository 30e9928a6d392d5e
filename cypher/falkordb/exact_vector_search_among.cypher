// exact_vector_search restricted to the cards $ids (those that pass recall's filters, found
// in process by graphmem/recall/passages.py): a filter narrows the candidates before the
// top $k is taken, so matching cards ranked far down are still found.
// As in exact_vector_search: null scores (no embedding) sort last and the caller drops them.
UNWIND $ids AS id
MATCH (c:Card {user_id: $user_id, id: id})
WITH c, vec.cosineDistance(c.embedding, vecf32($vector)) AS distance
ORDER BY distance ASC
LIMIT $k
RETURN c.id AS id, 1.0 - distance AS score
