// What recall's passages (graphmem/recall/passages.py) hold of one user's cards: those
// stamped after revision $since (every card with $since = -1; cards written before
// stamping existed count as revision 0), a page of $limit in id order after $after, with
// what passage keys, recall filters, a card's worth and its validity need
// (scoring.final_score, temporal.weight, point-in-time recall), with $vectors the vector
// recall ranks cards by in process (graphmem/recall/cosine.py; FalkorDB sends vectors as
// text, 4-5x the read of a page without them: a user read afresh is read without, and
// recall_vectors fills them in the background), and the id of the source
// turn or document passage each came from (its text: recall_sources, once per source).
// toString(c.id), not c.id: FalkorDB would answer `c.id > $after` from the index as a range
// over every tenant's card ids before keeping the user's, which grew a page's read
// with the whole store (0.7 s at 300k cards, 10x 30k);
// this way the index finds the user's cards alone and the page filters them.
MATCH (c:Card {user_id: $user_id})
WHERE coalesce(c.revision, 0) > $since AND toString(c.id) > $after
WITH c
ORDER BY c.id
LIMIT $limit
OPTIONAL MATCH (c)-[:FROM]->(s:Source)
RETURN c.id AS id, c.status AS status, c.fact AS fact, c.backstory AS backstory,
       c.person AS person, c.relationship AS relationship, c.category AS category,
       c.tags AS tags, c.timestamp AS timestamp, c.importance AS importance,
       c.confidence AS confidence, c.reward AS reward, c.valid_from AS valid_from,
       c.valid_to AS valid_to, c.created_at AS created_at, c.updated_at AS updated_at,
       c.claim AS claim, c.claim_value AS claim_value, c.likely_claim AS likely_claim,
       CASE WHEN $vectors THEN c.embedding END AS embedding, s.id AS source
