// Supersession and conflict edges touching the given cards, in their stored direction,
// with why they were recorded.
UNWIND $ids AS id
MATCH (c:Card {user_id: $user_id, id: id})-[r:SUPERSEDES|CONFLICTS_WITH]-(:Card {user_id: $user_id})
RETURN DISTINCT type(r) AS type, startNode(r).id AS source, endNode(r).id AS target,
       r.reason AS reason, r.decided_at AS decided_at, r.decided_by AS decided_by
