// Health check: one round trip to the store.
RETURN 1 AS ok
