// How many cards one user has (every status): decides exact vs. index search.
MATCH (c:Card {user_id: $user_id})
RETURN count(c) AS cards
