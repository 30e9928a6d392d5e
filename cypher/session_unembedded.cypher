// Live session turns without an embedding (written by ingestion or imported): what
// session search cannot find until they are embedded.
MATCH (s:Source {user_id: $user_id})
WHERE s.session_id IS NOT NULL AND s.embedding IS NULL AND s.deleted_at IS NULL
  AND s.text IS NOT NULL
RETURN s.id AS id, s.speaker AS speaker, s.text AS text,
       coalesce(s.timestamp, s.session_date, 0) AS timestamp
LIMIT $limit
