// A role one person holds at a time (a manager, a partner) passes to someone else: whoever
// held it since before $rows.since becomes former / ex (r.former), the old relationship
// kept in the KNOWS edge's history.
// $rows: [{key, roles: [words for the role], former, since}]
UNWIND $rows AS r
MATCH (u:User {user_id: $user_id})-[k:KNOWS]->(p:Person {user_id: $user_id})
WHERE p.key <> r.key AND k.relationship IN r.roles AND coalesce(k.since, 0) <= r.since
SET k.history = coalesce(k.history, []) + [k.relationship], k.relationship = r.former,
    k.since = r.since
RETURN p.key AS key, k.relationship AS relationship
