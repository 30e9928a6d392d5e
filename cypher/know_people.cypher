// How the user relates to the people cards were just written about: one row per person
// (FalkorDB keeps a single row per edge when one UNWIND merges the same relationship
// twice, dropping the others with their SETs), carrying that person's relationships in
// the batch in time order. Folded over the stored edge: a newer different relationship
// replaces the current one, which joins the edge's history; the first one said holds
// since it was said, not since the person was first named.
// $rows: [{person_key, first, first_since, changes: [{relationship, timestamp}]}]
UNWIND $rows AS r
MATCH (u:User {user_id: $user_id})
MATCH (p:Person {user_id: $user_id, key: r.person_key})
MERGE (u)-[k:KNOWS]->(p)
  ON CREATE SET k.relationship = r.first, k.since = r.first_since, k.history = []
WITH k, reduce(s = {rel: k.relationship, since: k.since, history: coalesce(k.history, [])},
               c IN r.changes |
       CASE WHEN c.relationship IS NULL THEN s
            WHEN s.rel IS NULL THEN {rel: c.relationship, since: c.timestamp, history: s.history}
            WHEN c.relationship <> s.rel AND c.timestamp > coalesce(s.since, 0)
            THEN {rel: c.relationship, since: c.timestamp, history: s.history + [s.rel]}
            ELSE s END) AS s
SET k.relationship = s.rel, k.since = s.since, k.history = s.history
RETURN count(k) AS people
