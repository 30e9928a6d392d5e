// When the user's memory was last consolidated (epoch ms) and how many active cards the
// last full clustering saw; nulls before the first run.
OPTIONAL MATCH (u:User {user_id: $user_id})
RETURN u.consolidated_at AS consolidated_at, u.clustered_cards AS clustered_cards
