// Create cards that do not exist yet, with their person and their provenance.
// Idempotent: MERGE on (user_id, id) everywhere. The user's relationship to each person
// is written next, one row per person (know_people: graphmem/write.py says why).
// A created card is stamped with the user's next revision (the user's counter moves to
// it; re-sent cards move nothing): recall's passages read what changed since.
// A new card's first version records its change ('create') and who decided it (the
// extractor, or 'caller'); graphmem/history.py archives it when it changes.
// FOREACH blocks come before the KNOWS update: FalkorDB drops earlier rows' FOREACH
// writes when a WITH ... SET precedes them in a batch (lost provenance in mixed batches).
// $rows: [{id, props, embedding, person_key, person, relationship, timestamp,
//          source_id, source, span_start, span_end, extractor, container_label,
//          container_id, container, decided_by, write}]
UNWIND $rows AS r
// Whether the row's source is already linked, read before anything is written (FalkorDB
// reads no pattern inside ON MATCH SET): for a card another writer stored meanwhile.
OPTIONAL MATCH (:Card {user_id: $user_id, id: r.id})-[:FROM]->
               (linked:Source {user_id: $user_id, id: r.source_id})
WITH r, linked IS NOT NULL AS linked
MERGE (u:User {user_id: $user_id})
  ON CREATE SET u.tenant = $tenant, u.identity_scheme = 2
MERGE (p:Person {user_id: $user_id, key: r.person_key})
  ON CREATE SET p.name = r.person, p.created_at = $now
MERGE (c:Card {user_id: $user_id, id: r.id})
  ON CREATE SET c += r.props, c.tenant = $tenant, c.embedding = vecf32(r.embedding), c.version = 1,
                c.created_at = $now, c.updated_at = $now,
                c.revision = coalesce(u.revision, 0) + 1, c.change = 'create',
                c.decided_by = r.decided_by, c.write_outcome = 'created', c.write_id = r.write
  // This very write, tried again after its reply was lost (r.write is one per call, the
  // same in every try; callers that do not retry leave it null), created it: 'created'.
  // Another writer stored the card between this job's plan and this write (the same fact
  // said at once): a repeat of it is counted below in this same query, as card_seen_again
  // would, so concurrent repeats are never lost; an exact copy changes nothing; other
  // content under the id is 'stale' (the caller re-reads). Cleared before the end.
  ON MATCH SET c.write_outcome = CASE
    WHEN c.write_id = r.write THEN 'created'
    WHEN c.content_hash = r.props.content_hash THEN 'unchanged'
    WHEN c.identity <> r.props.identity THEN 'stale'
    WHEN r.timestamp > coalesce(c.last_seen, c.timestamp) THEN 'seen'
    WHEN r.source_id IS NOT NULL AND NOT linked THEN 'seen'
    ELSE 'unchanged' END
// Cards of users in the vector index (see graphmem/recall/vector.py) join it as written.
FOREACH (_ IN CASE WHEN u.ann THEN [1] ELSE [] END | SET c:AnnCard)
MERGE (c)-[:ABOUT]->(p)
FOREACH (_ IN CASE WHEN r.source_id IS NULL THEN [] ELSE [1] END |
  MERGE (s:Source {user_id: $user_id, id: r.source_id})
    ON CREATE SET s += r.source
  MERGE (c)-[f:FROM]->(s)
    ON CREATE SET f.span_start = r.span_start, f.span_end = r.span_end,
                  f.extractor = r.extractor,
                  f.repeat = CASE WHEN c.write_outcome = 'seen' THEN true END,
                  f.at = CASE WHEN c.write_outcome = 'seen' THEN r.timestamp END
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
WITH c, u, r, c.write_outcome AS outcome
SET u.revision = CASE WHEN c.revision > coalesce(u.revision, 0) THEN c.revision
                      ELSE u.revision END,
    c.seen_count = CASE WHEN outcome = 'seen' THEN coalesce(c.seen_count, 1) + 1
                        ELSE c.seen_count END,
    c.access_count = CASE WHEN outcome = 'seen' THEN coalesce(c.access_count, 0) + 1
                          ELSE c.access_count END,
    c.last_accessed = CASE WHEN outcome = 'seen' THEN $now ELSE c.last_accessed END,
    c.last_seen = CASE WHEN outcome = 'seen' AND r.timestamp > coalesce(c.last_seen, c.timestamp)
                       THEN r.timestamp ELSE c.last_seen END,
    c.write_outcome = null
RETURN c.id AS id, c.version AS version, outcome
