// A user's people as a profile reads them: the relationship now, since when, what it was.
MATCH (:User {user_id: $user_id})-[k:KNOWS]->(p:Person {user_id: $user_id})
RETURN p.key AS key, p.name AS name, k.relationship AS relationship, k.since AS since,
       k.history AS history
ORDER BY key
