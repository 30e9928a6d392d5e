// A user's active cards that make one of $claims (graphmem.algorithms.conflicts.claim_of,
// stored as the card's claim key): what a write compares its new cards with.
UNWIND $claims AS claim
MATCH (c:Card {user_id: $user_id, claim: claim})
WHERE c.status = 'active'
RETURN c.id AS id, c.fact AS fact, c.person AS person, c.timestamp AS timestamp,
       c.confidence AS confidence, c.version AS version
