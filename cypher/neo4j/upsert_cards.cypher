// Create cards that do not exist yet, with their person and their provenance.
// Idempotent: MERGE on (user_id, id) everywhere. The user's relationship to each person
// is written next, one row per person (know_people: graphmem/write.py says why).
// A created card is stamped with the user's next revision (the user's counter moves to
// it; re-sent cards move nothing): recall's vector mirror reads what changed since.
// A new card's first version records its change ('create') and who decided it (the
// extractor, or 'caller'); graphmem/history.py archives it when it changes.
// Neo4j: the embedding is stored as a plain LIST<FLOAT> (what the vector index reads).
// FOREACH blocks come before the KNOWS update: FalkorDB drops earlier rows' FOREACH
// writes when a WITH ... SET precedes them in a batch; both dialects keep one order.
// $rows: [{id, props, embedding, person_key, person, relationship, timestamp,
//          source_id, source, span_start, span_end, extractor, container_label,
//          container_id, container, decided_by}]
UNWIND $rows AS r
MERGE (u:User {user_id: $user_id})
  ON CREATE SET u.tenant = $tenant, u.identity_scheme = 2
MERGE (p:Person {user_id: $user_id, key: r.person_key})
  ON CREATE SET p.name = r.person, p.created_at = $now
MERGE (c:Card {user_id: $user_id, id: r.id})
  ON CREATE SET c += r.props, c.tenant = $tenant, c.embedding = r.embedding, c.version = 1,
                c.created_at = $now, c.updated_at = $now,
                c.revision = coalesce(u.revision, 0) + 1, c.change = 'create',
                c.decided_by = r.decided_by
// Cards of users in the vector index (see graphmem/recall/vector.py) join it as written.
FOREACH (_ IN CASE WHEN u.ann THEN [1] ELSE [] END | SET c:AnnCard)
MERGE (c)-[:ABOUT]->(p)
FOREACH (_ IN CASE WHEN r.source_id IS NULL THEN [] ELSE [1] END |
  MERGE (s:Source {user_id: $user_id, id: r.source_id})
    ON CREATE SET s += r.source
  MERGE (c)-[f:FROM]->(s)
    ON CREATE SET f.span_start = r.span_start, f.span_end = r.span_end,
                  f.extractor = r.extractor
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
WITH c, u
SET u.revision = CASE WHEN c.revision > coalesce(u.revision, 0) THEN c.revision
                      ELSE u.revision END
RETURN c.id AS id, c.version AS version
