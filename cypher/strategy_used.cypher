// Count one use of a strategy, and one success when it worked.
MATCH (c:Card {user_id: $user_id, id: $id})
WHERE c.strategy_tool IS NOT NULL
SET c.strategy_uses = coalesce(c.strategy_uses, 0) + 1,
    c.strategy_successes = coalesce(c.strategy_successes, 0)
                           + CASE WHEN $worked THEN 1 ELSE 0 END
RETURN c.id AS id
