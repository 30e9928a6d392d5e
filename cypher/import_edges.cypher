// Import: SUPERSEDES and CONFLICTS_WITH edges between cards.
// $rows: [{type: 'supersedes'|'conflicts_with', source, target, props}]
UNWIND $rows AS r
MATCH (a:Card {user_id: $user_id, id: r.source})
MATCH (b:Card {user_id: $user_id, id: r.target})
FOREACH (_ IN CASE WHEN r.type = 'supersedes' THEN [1] ELSE [] END |
  MERGE (a)-[e:SUPERSEDES]->(b)
  SET e += r.props
)
FOREACH (_ IN CASE WHEN r.type = 'conflicts_with' THEN [1] ELSE [] END |
  MERGE (a)-[e:CONFLICTS_WITH]->(b)
  SET e += r.props
)
RETURN count(r) AS edges
