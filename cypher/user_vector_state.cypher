// How one user's vectors are searched (graphmem/recall/vector.py): `ann` is set by promote_ann
// once the user outgrew exact search, cleared by demote_ann. `revision` and `deletions`
// count the user's card writes and hard deletes: recall's passages
// (graphmem/recall/passages.py, with their vectors) compare them with what they hold. One
// index lookup.
OPTIONAL MATCH (u:User {user_id: $user_id})
RETURN coalesce(u.ann, false) AS ann, coalesce(u.revision, 0) AS revision,
       coalesce(u.deletions, 0) AS deletions
