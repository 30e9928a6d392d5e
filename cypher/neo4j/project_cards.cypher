// A user's active cards as consolidation sees them: the scalars its algorithms read.
// Vectors are read separately (project_embeddings), only for the cards a run needs.
// changed_at tells which cards are new or changed since the last consolidation.
// Each property read costs time per card, so nothing unused is returned (no status:
// all are active) and the caller sorts (ORDER BY in Cypher costs more).
MATCH (c:Card {user_id: $user_id})
WHERE c.status = 'active'
RETURN c.id AS id, c.fact AS fact, c.person AS person, c.category AS category, c.tags AS tags,
       c.timestamp AS timestamp,
       c.confidence AS confidence, c.importance AS importance, c.emotion AS emotion,
       c.reward AS reward, c.access_count AS access_count,
       c.last_accessed AS last_accessed, c.version AS version,
       coalesce(c.updated_at, c.created_at, 0) AS changed_at
