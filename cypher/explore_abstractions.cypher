// Explorer's cluster view: a user's largest abstractions, each with its summary and
// first `$members` member ids (the representative first, then by importance).
MATCH (a:Abstraction {user_id: $user_id})
OPTIONAL MATCH (a)-[:SUMMARIZES]->(c:Card {user_id: $user_id})
WITH a, c, CASE WHEN c.id = a.representative THEN 1 ELSE 0 END AS representative
ORDER BY representative DESC, c.importance DESC, c.id
WITH a, collect(c.id) AS members
RETURN a.id AS id, a.summary AS summary, a.representative AS representative,
       a.reason AS reason, size(members) AS size, members[..$members] AS shown
ORDER BY size DESC, id
LIMIT $limit
