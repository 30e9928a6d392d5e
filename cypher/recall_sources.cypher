// The source turns or document passages $ids of one user, for recall's passages
// (graphmem/recall/passages.py): read once per source, however many cards came from it.
UNWIND $ids AS id
MATCH (s:Source {user_id: $user_id, id: id})
RETURN s.id AS id, s.text AS text, s.speaker AS speaker, s.session_id AS session,
       s.document AS document, s.turn AS turn, s.session_date AS session_date
