// Import: abstractions and the cards each summarises.
// $rows: [{id, props, members: [{id, props}]}]
UNWIND $rows AS r
MERGE (a:Abstraction {user_id: $user_id, id: r.id})
SET a += r.props
WITH a, r
UNWIND r.members AS m
MATCH (c:Card {user_id: $user_id, id: m.id})
MERGE (a)-[s:SUMMARIZES]->(c)
SET s += m.props
RETURN count(s) AS members
