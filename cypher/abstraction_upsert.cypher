// Create or update abstractions; SUMMARIZES edges change by the delta only (`added`,
// `removed` card ids), so growing a large cluster by one card writes one edge.
// $rows: [{id, summary, representative, size, centroid (base64 float32), ranked, subject,
//          summary_source, reason, added: [card ids], removed: [card ids]}]
UNWIND $rows AS r
MERGE (a:Abstraction {user_id: $user_id, id: r.id})
  ON CREATE SET a.created_at = $now
SET a.summary = r.summary, a.representative = r.representative, a.size = r.size,
    a.centroid = r.centroid, a.ranked = r.ranked, a.subject = r.subject,
    a.summary_source = r.summary_source, a.reason = r.reason, a.updated_at = $now
WITH a, r
OPTIONAL MATCH (a)-[s:SUMMARIZES]->(old:Card)
WHERE old.id IN r.removed
DELETE s
WITH DISTINCT a, r
UNWIND r.added AS member
MATCH (c:Card {user_id: $user_id, id: member})
MERGE (a)-[:SUMMARIZES]->(c)
RETURN a.id AS id, count(c) AS added
