// Cards summarised by the same abstraction as the given cards (recall expansion).
UNWIND $ids AS id
MATCH (c:Card {user_id: $user_id, id: id})<-[:SUMMARIZES]-(a:Abstraction {user_id: $user_id})
MATCH (a)-[:SUMMARIZES]->(o:Card {user_id: $user_id})
WHERE o.status IN $statuses AND o.id <> id
RETURN a.id AS abstraction, o.id AS id, id AS via
