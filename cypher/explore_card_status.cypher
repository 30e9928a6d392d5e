// Why a card has its status: forgetting's reason and score (superseding reasons are on
// the SUPERSEDES edges, see explore_links).
MATCH (c:Card {user_id: $user_id, id: $id})
RETURN c.status AS status, c.forgotten_reason AS forgotten_reason,
       c.forgotten_score AS forgotten_score, c.forgotten_at AS forgotten_at
