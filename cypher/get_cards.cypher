// Cards by id with their provenance: evidence edge, source turn/passage, its container.
// The evidence is where the card was first stated; repeats' sources (FROM {repeat: true})
// are for provenance (card_provenance).
UNWIND $ids AS id
MATCH (c:Card {user_id: $user_id, id: id})
OPTIONAL MATCH (c)-[f:FROM]->(s:Source)
WHERE f.repeat IS NULL
OPTIONAL MATCH (s)-[:IN]->(g)
RETURN c {.*, embedding: null} AS card, f {.*} AS evidence, s {.*} AS source,
       head(labels(g)) AS container_label, g {.*} AS container
