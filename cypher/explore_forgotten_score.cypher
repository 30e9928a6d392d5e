// How likely forgetting judged a card to fade when it forgot it (its reason is in
// card_provenance).
MATCH (c:Card {user_id: $user_id, id: $id})
RETURN c.forgotten_score AS forgotten_score
