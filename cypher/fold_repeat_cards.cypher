// Migration: a card that repeats an earlier card (same identity) becomes a repeat of it,
// as a repeated remember now records it. The earlier card is seen again (last_seen,
// seen_count) and gains the repeat's sources (FROM {repeat: true}); the repeat is kept,
// superseded by it with the reason recorded (its state before archived as a CardVersion),
// and stamped with the user's next revision.
// $rows: [{keep, repeat}]
UNWIND $rows AS r
MATCH (keep:Card {user_id: $user_id, id: r.keep})
MATCH (dup:Card {user_id: $user_id, id: r.repeat})
WHERE dup.status = 'active'
MERGE (u:User {user_id: $user_id})
CREATE (v:CardVersion)-[:VERSION_OF]->(dup)
SET v += dup {.*, embedding: null, tenant: null, revision: null}
WITH r, keep, dup, u, coalesce(u.revision, 0) + 1 AS revision,
     coalesce(keep.last_seen, keep.timestamp) AS seen,
     coalesce(dup.last_seen, dup.timestamp) AS also
MERGE (keep)-[s:SUPERSEDES]->(dup)
SET s.reason = 'the same fact, person and relationship stated again: a repeat',
    s.attribute = 'repeat', s.decided_at = $now, s.decided_by = 'migration',
    dup.status = 'superseded', dup.version = dup.version + 1, dup.updated_at = $now,
    dup.revision = revision, u.revision = revision,
    dup.change = 'supersede', dup.decided_by = 'migration',
    dup.change_note = 'by ' + keep.id + ': a repeat of the same fact',
    keep.last_seen = CASE WHEN also > seen THEN also ELSE seen END,
    keep.seen_count = coalesce(keep.seen_count, 1) + coalesce(dup.seen_count, 1),
    keep.access_count = coalesce(keep.access_count, 0) + coalesce(dup.access_count, 0)
WITH keep, dup
OPTIONAL MATCH (dup)-[f:FROM]->(src:Source)
FOREACH (_ IN CASE WHEN src IS NULL THEN [] ELSE [1] END |
  MERGE (keep)-[g:FROM]->(src)
    ON CREATE SET g.span_start = f.span_start, g.span_end = f.span_end,
                  g.extractor = f.extractor, g.repeat = true, g.at = dup.timestamp
)
RETURN DISTINCT dup.id AS id
