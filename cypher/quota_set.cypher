// Set some of a user's own quota limits. $props: {quota_cards, quota_bytes,
// quota_writes_per_minute}, only the ones changed (null removes: back to the default).
MERGE (u:User {user_id: $user_id})
  ON CREATE SET u.tenant = $tenant
SET u += $props
RETURN u.user_id AS user_id
