// Migration: the user's cards all carry their identity (scheme 2).
MERGE (u:User {user_id: $user_id})
SET u.identity_scheme = 2
RETURN u.user_id AS user_id
