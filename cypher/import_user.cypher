// Import: the user node and its own properties.
MERGE (u:User {user_id: $user_id})
SET u += $props, u.tenant = $tenant
RETURN u.user_id AS user_id
