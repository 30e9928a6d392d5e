// A card MENTIONS some of the user's entities (ids in $ids).
MATCH (c:Card {user_id: $user_id, id: $card_id})
UNWIND $ids AS entity_id
MATCH (e:Entity {user_id: $user_id, id: entity_id})
MERGE (c)-[:MENTIONS]->(e)
RETURN count(e) AS linked
