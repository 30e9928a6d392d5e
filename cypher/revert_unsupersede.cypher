// After a revert: a card whose state is no longer superseded keeps no SUPERSEDES edge
// into it (provenance, the explorer and the profile would still show it replaced); the
// decision stays in its history, in the note of the version that superseded it.
MATCH (newer:Card {user_id: $user_id})-[s:SUPERSEDES]->(c:Card {user_id: $user_id, id: $card_id})
WHERE c.status <> 'superseded'
DELETE s
RETURN count(*) AS dropped
