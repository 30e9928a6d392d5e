// A user's own quota limits (null: the default applies; 0: unlimited) and the rate
// limiter's state (theoretical arrival time, epoch ms).
MATCH (u:User {user_id: $user_id})
RETURN u.quota_cards AS cards, u.quota_bytes AS bytes,
       u.quota_writes_per_minute AS writes_per_minute, u.rate_tat AS tat
