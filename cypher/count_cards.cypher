// How many cards a user has, by status.
MATCH (c:Card {user_id: $user_id})
RETURN c.status AS status, count(c) AS cards
