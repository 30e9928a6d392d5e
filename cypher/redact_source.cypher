// Replace a shared source's text (the forgotten evidence masked, same length).
MATCH (s:Source {user_id: $user_id, id: $id})
SET s.text = $text
RETURN s.id AS id
