// A user's active cards as consolidation sees them: the scalars its algorithms read.
// Vectors are read separately (project_embeddings), only for the cards a run needs.
// changed_at tells which cards are new or changed since the last consolidation.
// FalkorDB reads each property of each card (~1.2 us apiece), so nothing unused is
// returned (no status: all are active) and the caller sorts (ORDER BY cost 17%).
MATCH (c:Card {user_id: $user_id})
WHERE c.status = 'active'
RETURN c.id AS id, c.fact AS fact, c.person AS person, c.category AS category,
       c.timestamp AS timestamp,
       c.confidence AS confidence, c.importance AS importance, c.emotion AS emotion,
       c.reward AS reward, c.access_count AS access_count,
       c.last_accessed AS last_accessed, c.version AS version,
       coalesce(c.updated_at, c.created_at, 0) AS changed_at
