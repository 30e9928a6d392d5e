// One strategy card with its machine-readable fix.
MATCH (c:Card {user_id: $user_id, id: $id})
WHERE c.strategy_tool IS NOT NULL
RETURN c.id AS id, c.strategy_tool AS tool, c.strategy_error_type AS error_type,
       c.strategy_error AS error, c.strategy_original AS original, c.strategy_fixed AS fixed,
       c.confidence AS confidence, c.reward AS reward, c.strategy_uses AS uses,
       c.strategy_successes AS successes
