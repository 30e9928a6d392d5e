// Exact cosine over one user's cards: tenant-exact (never another user's card, always
// min(k, cards with an embedding) hits), linear in the user's cards.
// vec.cosineDistance is 1 - cos: the score is the cosine.
// A card without embedding has a null distance, which sorts last: the caller drops
// null scores. Filtering nulls here, or breaking ties by id, is measurably slower
// (docs/design.md, "Figures"); the caller orders ties by id.
// $at: point-in-time recall (graphmem/history.py), null otherwise: only cards known
// at $at.known_at and then valid at $at.as_of; a card changed since is kept, and the
// caller checks it against the state archived for that time.
MATCH (c:Card {user_id: $user_id})
WHERE c.status IN $statuses
  AND ($at IS NULL OR (coalesce(c.created_at, 0) <= $at.known_at
       AND (c.updated_at > $at.known_at
            OR (c.status <> 'forgotten'
                AND coalesce(c.valid_from, c.timestamp) <= $at.as_of
                AND coalesce(c.valid_to, $at.as_of + 1) > $at.as_of))))
WITH c, vec.cosineDistance(c.embedding, vecf32($vector)) AS distance
ORDER BY distance ASC
LIMIT $k
RETURN c.id AS id, 1.0 - distance AS score
