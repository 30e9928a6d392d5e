// Cards summarised by the same abstraction as the given cards (recall expansion).
// The WITHs pin the traversal order: from the given cards outwards (FalkorDB would
// otherwise start from an index scan over all of the user's cards).
UNWIND $ids AS id
MATCH (c:Card {user_id: $user_id, id: id})
WITH c, id
MATCH (c)<-[:SUMMARIZES]-(a:Abstraction)
WITH a, id
MATCH (a)-[:SUMMARIZES]->(o:Card)
WHERE o.user_id = $user_id AND o.status IN $statuses AND o.id <> id
RETURN a.id AS abstraction, o.id AS id, id AS via
