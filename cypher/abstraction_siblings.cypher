// The most central cards (a.ranked, up to 8) of the abstractions that summarise the
// given cards: recall's expansion from a hit to what it is usually remembered with.
// The WITHs pin the traversal order: from the given cards outwards (FalkorDB would
// otherwise start from an index scan over all of the user's cards).
UNWIND $ids AS id
MATCH (c:Card {user_id: $user_id, id: id})
WITH c, id
MATCH (c)<-[:SUMMARIZES]-(a:Abstraction)
WITH a, id
UNWIND coalesce(a.ranked, []) AS sibling
MATCH (o:Card {user_id: $user_id, id: sibling})
WHERE o.status IN $statuses AND o.id <> id
RETURN a.id AS abstraction, o.id AS id, id AS via
