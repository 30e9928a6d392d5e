// Give session turns their search embedding. $rows: [{id, embedding}]
UNWIND $rows AS r
MATCH (s:Source {user_id: $user_id, id: r.id})
SET s.embedding = vecf32(r.embedding)
RETURN count(s) AS embedded
