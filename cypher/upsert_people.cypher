// People learnt by ingestion: aliases, and the user's relationship to each. A changed
// relationship keeps the old one in the KNOWS edge's history; a new edge starts with the
// history ingestion learnt ("my girlfriend Mia" ... "she's my wife now"). A relationship
// holds since it was said, not since the person was first named ("theo brought me pho"
// ... "theo proposed"), nor since a later card about them ("paolo proposed last night",
// a card about the user, then "paolo loves canada", a card about the fiancé).
// $people: [{key, name, aliases, relationship, history, since}]
UNWIND $people AS r
MERGE (u:User {user_id: $user_id})
MERGE (p:Person {user_id: $user_id, key: r.key})
  ON CREATE SET p.name = r.name, p.created_at = $now
SET p.aliases = r.aliases
MERGE (u)-[k:KNOWS]->(p)
  ON CREATE SET k.relationship = r.relationship, k.since = r.since,
                k.history = coalesce(r.history, [])
WITH k, r,
     r.relationship IS NOT NULL AND k.relationship IS NOT NULL
       AND r.relationship <> k.relationship AS changed,
     r.relationship IS NOT NULL AND k.relationship IS NULL AS learnt
SET k.history = CASE WHEN changed THEN coalesce(k.history, []) + [k.relationship]
                     WHEN size(coalesce(k.history, [])) = 0 THEN coalesce(r.history, [])
                     ELSE k.history END,
    k.relationship = coalesce(r.relationship, k.relationship),
    k.since = CASE WHEN changed OR learnt THEN r.since
                   WHEN r.relationship = k.relationship AND r.since < k.since THEN r.since
                   ELSE k.since END
RETURN count(k) AS people
