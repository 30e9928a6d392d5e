// Neo4j schema (5.18+ and 2025.x), every statement idempotent (IF NOT EXISTS).
// The adapter replaces $dimension with a validated integer literal before running it:
// index options cannot take parameters on every Neo4j version.
// Uniqueness per tenant: each constraint also creates a range index on its properties.
CREATE CONSTRAINT card_key IF NOT EXISTS FOR (c:Card) REQUIRE (c.user_id, c.id) IS UNIQUE;
CREATE CONSTRAINT person_key IF NOT EXISTS FOR (p:Person) REQUIRE (p.user_id, p.key) IS UNIQUE;
CREATE CONSTRAINT user_key IF NOT EXISTS FOR (u:User) REQUIRE u.user_id IS UNIQUE;
CREATE CONSTRAINT source_key IF NOT EXISTS FOR (s:Source) REQUIRE (s.user_id, s.id) IS UNIQUE;
CREATE CONSTRAINT session_key IF NOT EXISTS FOR (s:Session) REQUIRE (s.user_id, s.id) IS UNIQUE;
CREATE CONSTRAINT document_key IF NOT EXISTS FOR (d:Document) REQUIRE (d.user_id, d.id) IS UNIQUE;
CREATE CONSTRAINT abstraction_key IF NOT EXISTS
  FOR (a:Abstraction) REQUIRE (a.user_id, a.id) IS UNIQUE;
CREATE CONSTRAINT task_key IF NOT EXISTS FOR (t:Task) REQUIRE (t.user_id, t.id) IS UNIQUE;
CREATE CONSTRAINT entity_key IF NOT EXISTS FOR (e:Entity) REQUIRE (e.user_id, e.key) IS UNIQUE;
CREATE CONSTRAINT session_summary_key IF NOT EXISTS
  FOR (m:SessionSummary) REQUIRE (m.user_id, m.id) IS UNIQUE;
CREATE CONSTRAINT trace_key IF NOT EXISTS FOR (t:Trace) REQUIRE (t.user_id, t.id) IS UNIQUE;
CREATE CONSTRAINT step_key IF NOT EXISTS FOR (s:Step) REQUIRE (s.user_id, s.id) IS UNIQUE;
CREATE CONSTRAINT tool_call_key IF NOT EXISTS FOR (c:ToolCall) REQUIRE (c.user_id, c.id) IS UNIQUE;
// Every query filters on user_id alone first (list a user's cards, people, tasks).
CREATE INDEX card_user IF NOT EXISTS FOR (c:Card) ON (c.user_id);
CREATE INDEX card_hash IF NOT EXISTS FOR (c:Card) ON (c.user_id, c.content_hash);
CREATE INDEX card_identity IF NOT EXISTS FOR (c:Card) ON (c.user_id, c.identity);
CREATE INDEX card_status IF NOT EXISTS FOR (c:Card) ON (c.user_id, c.status);
// A card's claim key (what it states about whom): a write finds the cards it may change.
CREATE INDEX card_claim IF NOT EXISTS FOR (c:Card) ON (c.user_id, c.claim);
CREATE INDEX person_user IF NOT EXISTS FOR (p:Person) ON (p.user_id);
CREATE INDEX source_user IF NOT EXISTS FOR (s:Source) ON (s.user_id);
CREATE INDEX session_user IF NOT EXISTS FOR (s:Session) ON (s.user_id);
CREATE INDEX document_user IF NOT EXISTS FOR (d:Document) ON (d.user_id);
CREATE INDEX abstraction_user IF NOT EXISTS FOR (a:Abstraction) ON (a.user_id);
CREATE INDEX task_user IF NOT EXISTS FOR (t:Task) ON (t.user_id);
// A card's history: its archived versions (graphmem/history.py), found even after the
// card itself was erased.
CREATE INDEX card_version IF NOT EXISTS FOR (v:CardVersion) ON (v.user_id, v.id);
CREATE INDEX entity_id IF NOT EXISTS FOR (e:Entity) ON (e.user_id, e.id);
CREATE INDEX trace_user IF NOT EXISTS FOR (t:Trace) ON (t.user_id);
CREATE INDEX tool_call_user IF NOT EXISTS FOR (c:ToolCall) ON (c.user_id, c.tool);
CREATE INDEX source_session IF NOT EXISTS FOR (s:Source) ON (s.user_id, s.session_id);
// Same label as FalkorDB (AnnCard: cards of users large enough for approximate search),
// so both backends answer vector_search over the same cards.
CREATE VECTOR INDEX card_embedding IF NOT EXISTS FOR (c:AnnCard) ON (c.embedding)
  OPTIONS {indexConfig: {`vector.dimensions`: $dimension,
                         `vector.similarity_function`: 'cosine'}};
// tenant: every card's user token (graphmem/store/text.py), so a search keeps to one user.
// card_text (before tenant tokens) is replaced by card_search.
DROP INDEX card_text IF EXISTS;
CREATE FULLTEXT INDEX card_search IF NOT EXISTS FOR (c:Card)
  ON EACH [c.fact, c.backstory, c.person, c.tenant]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CALL db.awaitIndexes(300)
