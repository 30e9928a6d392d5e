// A typed relation between two of a user's entities (ids, or ids merged into them);
// one per (source, target, type): a repeat returns the existing one.
MATCH (a:Entity {user_id: $user_id})
WHERE a.id = $source_id OR $source_id IN coalesce(a.merged_ids, [])
MATCH (b:Entity {user_id: $user_id})
WHERE b.id = $target_id OR $target_id IN coalesce(b.merged_ids, [])
MERGE (a)-[r:RELATED_TO {type: $type}]->(b)
  ON CREATE SET r.id = $id, r.properties = $properties, r.created_at = $now
RETURN r.id AS id, a.id AS source_id, b.id AS target_id, r.type AS type,
       r.properties AS properties, r.created_at AS created_at
