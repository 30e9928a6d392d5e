// Start a reasoning trace; linked to the user's task $task_id when given (the caller
// checked it exists). The task text is embedded for similar-trace lookup.
MERGE (u:User {user_id: $user_id})
  ON CREATE SET u.tenant = $tenant
CREATE (t:Trace {user_id: $user_id, id: $id})
SET t += $props, t.embedding = $embedding
WITH t
OPTIONAL MATCH (k:Task {user_id: $user_id, id: $task_id})
FOREACH (_ IN CASE WHEN k IS NULL THEN [] ELSE [1] END | CREATE (t)-[:WORKS_ON]->(k))
RETURN t.id AS id
