// Import: archived card versions, linked to their card when it exists (an erased card's
// versions stand alone). Idempotent: MERGE on (user_id, id, version).
// The FOREACH comes before the SET (see upsert_cards: FalkorDB's batch quirk).
// $rows: [{id, version, props}]
UNWIND $rows AS r
OPTIONAL MATCH (c:Card {user_id: $user_id, id: r.id})
MERGE (v:CardVersion {user_id: $user_id, id: r.id, version: r.version})
FOREACH (_ IN CASE WHEN c IS NULL THEN [] ELSE [1] END | MERGE (v)-[:VERSION_OF]->(c))
SET v += r.props
RETURN count(v) AS versions
