// After a revert: a card whose state is no longer superseded keeps no SUPERSEDES edge
// into it (provenance, the explorer and the profile would still show it replaced); the
// decision stays in its history, in the note of the version that superseded it. The
// caller's revert is recorded as a CONFLICTS_WITH edge between the two, so a later
// consolidation (which skips recorded pairs) does not supersede the card again.
MATCH (newer:Card {user_id: $user_id})-[s:SUPERSEDES]->(c:Card {user_id: $user_id, id: $card_id})
WHERE c.status <> 'superseded'
MERGE (newer)-[x:CONFLICTS_WITH]->(c)
SET x.reason = 'reverted: ' + c.id + ' stands again beside ' + newer.id,
    x.attribute = s.attribute, x.decided_at = $now, x.decided_by = $decided_by
DELETE s
RETURN count(*) AS dropped
