// Every recorded version of a card: the states archived before each change (CardVersion,
// kept after a hard forget, without text) and the card itself, its current version.
OPTIONAL MATCH (v:CardVersion {user_id: $user_id, id: $id})
WITH collect(v {.*}) AS archived
OPTIONAL MATCH (c:Card {user_id: $user_id, id: $id})
// (FalkorDB projects a missing node to a map of nulls: hence the CASE.)
RETURN archived,
       CASE WHEN c IS NULL THEN null
            ELSE c {.*, embedding: null, tenant: null, revision: null} END AS current
