// The days (epoch day numbers) on which a user said something: forgetting's clock is the
// user's own activity, so a dormant user's memory does not fade.
MATCH (c:Card {user_id: $user_id})
RETURN DISTINCT c.timestamp / 86400000 AS day
