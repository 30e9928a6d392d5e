// A user's whole task graph, for the dependency rules (graphmem.algorithms.tasks): every
// task with the ids it is blocked by and the cards it cites, plus the user's task-graph
// version (bumped by every structural write; guards the rules against concurrent writers).
MATCH (t:Task {user_id: $user_id})
OPTIONAL MATCH (t)-[:BLOCKED_BY]->(b:Task {user_id: $user_id})
WITH t, collect(b.id) AS blocked_by
OPTIONAL MATCH (t)-[:CITES]->(c:Card {user_id: $user_id})
WITH t, blocked_by, collect(c.id) AS cites
OPTIONAL MATCH (u:User {user_id: $user_id})
RETURN t {.*} AS task, blocked_by, cites, coalesce(u.task_graph_version, 0) AS graph_version
