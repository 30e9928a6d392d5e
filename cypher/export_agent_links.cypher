// Export: relations between a user's entities (RELATED_TO, typed by a property) and the
// entities cards mention (MENTIONS).
MATCH (a:Entity {user_id: $user_id})-[r:RELATED_TO]->(b:Entity {user_id: $user_id})
RETURN 'relation' AS type, a.id AS source, b.id AS target, r {.*} AS props
UNION ALL
MATCH (c:Card {user_id: $user_id})-[m:MENTIONS]->(e:Entity {user_id: $user_id})
RETURN 'mention' AS type, c.id AS source, e.id AS target, m {.*} AS props
