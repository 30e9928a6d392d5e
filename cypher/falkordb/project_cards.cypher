// A user's active cards as consolidation sees them: the scalars its algorithms read.
// Vectors are read separately (project_embeddings), only for the cards a run needs.
// changed_at tells which cards are new or changed since the last consolidation.
// The numbers travel as one JSON map per card (json_columns, which the adapter unpacks
// into columns): about twice as fast as one cell each (docs/design.md, "Figures"),
// since every cell of a reply becomes three Python objects. FalkorDB writes numbers in
// JSON with the 15 significant digits of its replies; strings stay cells (toJSON does
// not escape quotes). Nothing unused is returned and the caller sorts (ORDER BY: +17%).
MATCH (c:Card {user_id: $user_id})
WHERE c.status = 'active'
RETURN c.id AS id, c.fact AS fact, c.person AS person, c.category AS category, c.tags AS tags,
       toJSON({timestamp: c.timestamp, confidence: c.confidence,
               importance: c.importance, emotion: c.emotion, reward: c.reward,
               access_count: c.access_count, last_accessed: c.last_accessed,
               version: c.version,
               changed_at: coalesce(c.updated_at, c.created_at, 0)}) AS json_columns
