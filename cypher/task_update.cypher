// One change to one task, all or nothing: fields ($props; a null removes one), blockers
// to add ($blocked_ids) or drop ($unblock_ids), tasks it now blocks ($blocks_ids), cards
// to cite ($card_ids). Guards: the task's version ($expected_version; null = any), the
// user's task-graph version ($graph_version; null for changes the dependency rules do not
// read, else checked and bumped), and every id being this user's. No row back = a guard
// failed; the caller re-reads to say which.
MATCH (t:Task {user_id: $user_id, id: $id})
WHERE $expected_version IS NULL OR t.version = $expected_version
MERGE (u:User {user_id: $user_id})
WITH t, u
WHERE $graph_version IS NULL OR coalesce(u.task_graph_version, 0) = $graph_version
OPTIONAL MATCH (b:Task {user_id: $user_id}) WHERE b.id IN $blocked_ids
WITH t, u, collect(DISTINCT b) AS blockers
OPTIONAL MATCH (d:Task {user_id: $user_id}) WHERE d.id IN $blocks_ids
WITH t, u, blockers, collect(DISTINCT d) AS dependants
OPTIONAL MATCH (c:Card {user_id: $user_id}) WHERE c.id IN $card_ids
WITH t, u, blockers, dependants, collect(DISTINCT c) AS cards
WHERE size(blockers) = size($blocked_ids) AND size(dependants) = size($blocks_ids)
  AND size(cards) = size($card_ids)
SET t += $props, t.version = t.version + 1, t.updated_at = $now,
    u.task_graph_version = coalesce(u.task_graph_version, 0)
      + CASE WHEN $graph_version IS NULL THEN 0 ELSE 1 END
FOREACH (b IN blockers | MERGE (t)-[:BLOCKED_BY]->(b))
FOREACH (d IN dependants | MERGE (d)-[:BLOCKED_BY]->(t))
FOREACH (c IN cards | MERGE (t)-[:CITES]->(c))
WITH t
OPTIONAL MATCH (t)-[r:BLOCKED_BY]->(x:Task {user_id: $user_id}) WHERE x.id IN $unblock_ids
WITH t, collect(r) AS dropped
FOREACH (r IN dropped | DELETE r)
RETURN t.version AS version
