// How one user's vectors are searched (graphmem/vector.py): `ann` is set by promote_ann
// once the user outgrew exact search, cleared by demote_ann. One index lookup.
OPTIONAL MATCH (u:User {user_id: $user_id})
RETURN coalesce(u.ann, false) AS ann
