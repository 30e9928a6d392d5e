// A user's active strategies for a tool or an error type (tags tool:<name>, error:<type>).
MATCH (c:Card {user_id: $user_id})
WHERE c.category = 'strategy' AND c.status = 'active' AND c.strategy_tool IS NOT NULL
  AND any(tag IN c.tags WHERE tag IN $tags)
RETURN c.id AS id, c.strategy_tool AS tool, c.strategy_error_type AS error_type,
       c.strategy_error AS error, c.strategy_original AS original, c.strategy_fixed AS fixed,
       c.confidence AS confidence, c.reward AS reward, c.strategy_uses AS uses,
       c.strategy_successes AS successes
