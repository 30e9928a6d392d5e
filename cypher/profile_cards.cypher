// A user's cards as a profile reads them (graphmem/profile.py): every card in $statuses,
// without its vector, with the cards it superseded and when that was decided.
MATCH (c:Card {user_id: $user_id})
WHERE c.status IN $statuses
OPTIONAL MATCH (c)-[s:SUPERSEDES]->(o:Card)
WITH c, collect(CASE WHEN o IS NULL THEN null ELSE {id: o.id, at: s.decided_at} END) AS older
RETURN c {.*, embedding: null, tenant: null, revision: null} AS card, older
