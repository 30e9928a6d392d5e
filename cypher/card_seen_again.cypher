// A fact stated again is the card already stored, seen again: last_seen moves forward,
// the repeat counts as an access (forgetting keeps it longer), and the repeat's source is
// linked (FROM {repeat: true, at}), so provenance lists every time it was said. Not a
// content change: no version bump; vector and status stay, so no revision stamp.
// $rows: [{id, at, source_id, source, span_start, span_end, extractor, container_label,
//          container_id, container}]
UNWIND $rows AS r
MATCH (c:Card {user_id: $user_id, id: r.id})
WITH c, r, coalesce(c.last_seen, c.timestamp) AS seen
SET c.last_seen = CASE WHEN seen >= r.at THEN seen ELSE r.at END,
    c.seen_count = coalesce(c.seen_count, 1) + 1,
    c.access_count = coalesce(c.access_count, 0) + 1,
    c.last_accessed = $now
FOREACH (_ IN CASE WHEN r.source_id IS NULL THEN [] ELSE [1] END |
  MERGE (s:Source {user_id: $user_id, id: r.source_id})
    ON CREATE SET s += r.source
  MERGE (c)-[f:FROM]->(s)
    ON CREATE SET f.span_start = r.span_start, f.span_end = r.span_end,
                  f.extractor = r.extractor, f.repeat = true, f.at = r.at
)
FOREACH (_ IN CASE WHEN r.container_label = 'Session' THEN [1] ELSE [] END |
  MERGE (s:Source {user_id: $user_id, id: r.source_id})
  MERGE (g:Session {user_id: $user_id, id: r.container_id})
    ON CREATE SET g += r.container
  MERGE (s)-[:IN]->(g)
)
FOREACH (_ IN CASE WHEN r.container_label = 'Document' THEN [1] ELSE [] END |
  MERGE (s:Source {user_id: $user_id, id: r.source_id})
  MERGE (g:Document {user_id: $user_id, id: r.container_id})
    ON CREATE SET g += r.container
  MERGE (s)-[:IN]->(g)
)
RETURN c.id AS id
