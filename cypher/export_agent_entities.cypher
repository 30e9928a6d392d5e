// Export: a user's entities other than people (people travel as person records, their
// entity id and type among their properties).
MATCH (e:Entity {user_id: $user_id})
WHERE NOT e:Person
RETURN e {.*} AS props
ORDER BY props.id
