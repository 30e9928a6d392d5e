// Fold entity $source_id into $target_id in one write: relations (both directions, not
// between the two), cards ABOUT or MENTIONING the source, and the user's KNOWS edge when
// the target has none move to the target; the source's names become aliases and its
// ids keep resolving (merged_ids); then the source goes. $name renames the target (and
// a person's key, unless another person has it).
MATCH (s:Entity {user_id: $user_id, id: $source_id})
MATCH (t:Entity {user_id: $user_id, id: $target_id})
WHERE s <> t
OPTIONAL MATCH (s)-[r:RELATED_TO]->(x:Entity)
WHERE x <> t
FOREACH (_ IN CASE WHEN r IS NULL THEN [] ELSE [1] END |
  MERGE (t)-[n:RELATED_TO {type: r.type}]->(x)
    ON CREATE SET n.id = r.id, n.properties = r.properties, n.created_at = r.created_at
)
WITH DISTINCT s, t
OPTIONAL MATCH (y:Entity)-[r:RELATED_TO]->(s)
WHERE y <> t
FOREACH (_ IN CASE WHEN r IS NULL THEN [] ELSE [1] END |
  MERGE (y)-[n:RELATED_TO {type: r.type}]->(t)
    ON CREATE SET n.id = r.id, n.properties = r.properties, n.created_at = r.created_at
)
WITH DISTINCT s, t
OPTIONAL MATCH (c:Card)-[:ABOUT]->(s)
FOREACH (_ IN CASE WHEN c IS NULL THEN [] ELSE [1] END | MERGE (c)-[:ABOUT]->(t))
WITH DISTINCT s, t
OPTIONAL MATCH (c:Card)-[:MENTIONS]->(s)
FOREACH (_ IN CASE WHEN c IS NULL THEN [] ELSE [1] END | MERGE (c)-[:MENTIONS]->(t))
WITH DISTINCT s, t
OPTIONAL MATCH (u:User {user_id: $user_id})-[k:KNOWS]->(s)
OPTIONAL MATCH (u)-[kt:KNOWS]->(t)
FOREACH (_ IN CASE WHEN k IS NOT NULL AND kt IS NULL THEN [1] ELSE [] END |
  MERGE (u)-[n:KNOWS]->(t)
    ON CREATE SET n.relationship = k.relationship, n.since = k.since, n.history = k.history
)
WITH DISTINCT s, t
OPTIONAL MATCH (other:Person {user_id: $user_id, key: $key})
WHERE other <> t AND other <> s
WITH s, t, count(other) AS taken
SET t.aliases = [a IN coalesce(t.aliases, []) + [s.name] + coalesce(s.aliases, [])
                 WHERE a <> coalesce($name, t.name)],
    t.merged_ids = coalesce(t.merged_ids, []) + [s.id] + coalesce(s.merged_ids, []),
    t.description = coalesce(t.description, s.description),
    t.updated_at = $now
// FalkorDB: a SET reads the values before an earlier SET of the same query part.
WITH s, t, taken
SET t.aliases = CASE WHEN $name IS NULL OR $name = t.name THEN t.aliases
                     ELSE t.aliases + [t.name] END,
    t.key = CASE WHEN $name IS NOT NULL AND t:Person AND taken = 0 THEN $key ELSE t.key END,
    t.name = coalesce($name, t.name)
DETACH DELETE s
RETURN t.id AS id
