// An abstraction's ranking and subject, with the cards it still summarises.
// $ids: abstraction ids
UNWIND $ids AS aid
MATCH (a:Abstraction {user_id: $user_id, id: aid})
OPTIONAL MATCH (a)-[:SUMMARIZES]->(c:Card {user_id: $user_id})
RETURN a.id AS id, a.ranked AS ranked, a.subject AS subject,
       collect(c {.id, .fact}) AS members
