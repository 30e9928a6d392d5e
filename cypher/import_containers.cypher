// Import: sessions and documents. $rows: [{type: 'session'|'document', id, props}]
UNWIND $rows AS r
FOREACH (_ IN CASE WHEN r.type = 'session' THEN [1] ELSE [] END |
  MERGE (g:Session {user_id: $user_id, id: r.id})
  SET g += r.props
)
FOREACH (_ IN CASE WHEN r.type = 'document' THEN [1] ELSE [] END |
  MERGE (g:Document {user_id: $user_id, id: r.id})
  SET g += r.props
)
RETURN count(r) AS containers
