// The most central cards (a.ranked, up to 8) of the abstractions that summarise the
// given cards: recall's expansion from a hit to what it is usually remembered with.
// The WITHs pin the traversal order: from the given cards outwards (FalkorDB would
// otherwise start from an index scan over all of the user's cards).
// $at: point-in-time recall (graphmem/history.py), null otherwise: only cards known
// at $at.known_at and then valid at $at.as_of; a card changed since is kept, and the
// caller checks it against the state archived for that time.
UNWIND $ids AS id
MATCH (c:Card {user_id: $user_id, id: id})
WITH c, id
MATCH (c)<-[:SUMMARIZES]-(a:Abstraction)
WITH a, id
UNWIND coalesce(a.ranked, []) AS sibling
MATCH (o:Card {user_id: $user_id, id: sibling})
WHERE o.status IN $statuses AND o.id <> id
  AND ($at IS NULL OR (coalesce(o.created_at, 0) <= $at.known_at
       AND (o.updated_at > $at.known_at
            OR (o.status <> 'forgotten'
                AND coalesce(o.valid_from, o.timestamp) <= $at.as_of
                AND coalesce(o.valid_to, $at.as_of + 1) > $at.as_of))))
RETURN a.id AS abstraction, o.id AS id, id AS via
