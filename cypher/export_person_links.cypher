// Export: mentions linked for review as maybe the same person as someone known.
MATCH (m:Person {user_id: $user_id})-[s:MAYBE_SAME]->(p:Person {user_id: $user_id})
RETURN m.key AS source, p.key AS target, s {.*} AS props
ORDER BY source, target
