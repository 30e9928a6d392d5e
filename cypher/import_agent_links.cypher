// Import: RELATED_TO between entities, MENTIONS from cards to entities.
// $rows: [{type: 'relation'|'mention', source, target, props}]
UNWIND $rows AS r
MATCH (b:Entity {user_id: $user_id, id: r.target})
OPTIONAL MATCH (a:Entity {user_id: $user_id, id: r.source})
OPTIONAL MATCH (c:Card {user_id: $user_id, id: r.source})
FOREACH (_ IN CASE WHEN r.type = 'relation' AND a IS NOT NULL THEN [1] ELSE [] END |
  MERGE (a)-[x:RELATED_TO {type: r.props.type}]->(b)
  SET x += r.props
)
FOREACH (_ IN CASE WHEN r.type = 'mention' AND c IS NOT NULL THEN [1] ELSE [] END |
  MERGE (c)-[:MENTIONS]->(b)
)
RETURN count(r) AS links
