// FalkorDB schema. Idempotence: the adapter skips statements whose index exists
// (FalkorDB has no IF NOT EXISTS); uniqueness constraints are created by the adapter
// with GRAPH.CONSTRAINT, which needs these range indexes first.
CREATE INDEX FOR (c:Card) ON (c.user_id, c.id, c.content_hash, c.status);
// identity: how a repeated fact finds its card (graphmem/models.py identity).
CREATE INDEX FOR (c:Card) ON (c.identity);
CREATE INDEX FOR (p:Person) ON (p.user_id, p.key);
CREATE INDEX FOR (u:User) ON (u.user_id);
CREATE INDEX FOR (s:Source) ON (s.user_id, s.id);
CREATE INDEX FOR (s:Session) ON (s.user_id, s.id);
CREATE INDEX FOR (d:Document) ON (d.user_id, d.id);
CREATE INDEX FOR (a:Abstraction) ON (a.user_id, a.id);
CREATE INDEX FOR (t:Task) ON (t.user_id, t.id);
CREATE INDEX FOR (v:CardVersion) ON (v.user_id, v.id);
// The HNSW index is rebuilt in memory at every server start (minutes at 100k cards), so
// it covers only cards of users large enough to need it (label AnnCard); everyone else
// gets exact per-user cosine (see exact_vector_search).
CREATE VECTOR INDEX FOR (c:AnnCard) ON (c.embedding) OPTIONS {dimension: $dimension, similarityFunction: 'cosine'};
CALL db.idx.fulltext.createNodeIndex({label: 'Card', language: 'english'}, 'fact', 'backstory', 'person');
// tenant: every card's user token (graphmem/store/text.py), so a search keeps to one user.
// Its own statement: FalkorDB adds a field to an existing index only when asked for it
// alone, and stores made before tenant tokens need exactly that.
CALL db.idx.fulltext.createNodeIndex({label: 'Card', language: 'english'}, 'tenant')
