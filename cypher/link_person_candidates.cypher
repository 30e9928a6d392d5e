// A mention that may be someone already known: linked for review, never merged.
// $links: [{mention_key, mention, candidate_key, where}]
UNWIND $links AS r
MATCH (c:Person {user_id: $user_id, key: r.candidate_key})
MERGE (m:Person {user_id: $user_id, key: r.mention_key})
  ON CREATE SET m.name = r.mention, m.created_at = $now
MERGE (m)-[s:MAYBE_SAME]->(c)
  ON CREATE SET s.where = r.where, s.created_at = $now
RETURN count(s) AS links
