// A user's abstractions as a profile and its reflection files read them: summary,
// representative card, when made and changed, and the member card ids.
MATCH (a:Abstraction {user_id: $user_id})
OPTIONAL MATCH (a)-[:SUMMARIZES]->(c:Card)
WITH a, collect(c.id) AS members
RETURN a.id AS id, a.summary AS summary, a.representative AS representative,
       a.subject AS subject, a.summary_source AS summary_source,
       a.created_at AS created_at, a.updated_at AS updated_at, members
ORDER BY id
