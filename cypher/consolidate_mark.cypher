// Remember when the user's memory was consolidated (the next run is incremental from
// here) and, after a full clustering, how many cards it saw.
MERGE (u:User {user_id: $user_id})
SET u.consolidated_at = $at, u.clustered_cards = coalesce($clustered_cards, u.clustered_cards)
RETURN u.consolidated_at AS consolidated_at
