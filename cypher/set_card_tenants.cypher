// Migration: give one user's cards their full-text token, then mark the user as done.
MATCH (c:Card {user_id: $user_id})
WHERE c.tenant IS NULL
SET c.tenant = $tenant
WITH count(c) AS cards
MERGE (u:User {user_id: $user_id})
SET u.tenant = $tenant
RETURN cards
