// Import: source turns/passages and the session or document each is in.
// $rows: [{id, props, containers: [{label: 'Session'|'Document', id}]}]
UNWIND $rows AS r
MERGE (s:Source {user_id: $user_id, id: r.id})
SET s += r.props
FOREACH (g IN [x IN r.containers WHERE x.label = 'Session'] |
  MERGE (container:Session {user_id: $user_id, id: g.id})
  MERGE (s)-[:IN]->(container)
)
FOREACH (g IN [x IN r.containers WHERE x.label = 'Document'] |
  MERGE (container:Document {user_id: $user_id, id: g.id})
  MERGE (s)-[:IN]->(container)
)
RETURN count(s) AS sources
