// Hard forget: the card node, its vector and its edges go; sources no other card cites
// go with it. Returns the ids of sources that other cards still cite (to be redacted).
// The user's deletion count tells recall's passages to drop what they hold.
// History keeps that the card existed and how it changed, without its text: every
// archived version keeps only who/when/how (erased_at set), the last state is archived
// the same way, and an 'erase' version ends the history.
MATCH (c:Card {user_id: $user_id, id: $id})
MERGE (u:User {user_id: $user_id})
SET u.deletions = coalesce(u.deletions, 0) + 1
WITH c
OPTIONAL MATCH (old:CardVersion {user_id: $user_id, id: $id})
WITH c, collect(old) AS archived
FOREACH (o IN archived |
  SET o = o {.user_id, .id, .version, .change, .decided_by, .created_at, .updated_at,
             erased_at: $now}
)
CREATE (last:CardVersion)
SET last = c {.user_id, .id, .version, .change, .decided_by, .created_at, .updated_at,
              erased_at: $now}
CREATE (:CardVersion {user_id: $user_id, id: $id, version: c.version + 1, change: 'erase',
                      decided_by: $decided_by, created_at: c.created_at, updated_at: $now,
                      erased_at: $now})
WITH c
OPTIONAL MATCH (c)-[:FROM]->(s:Source)
WITH c, collect(s) AS sources
DETACH DELETE c
WITH sources
UNWIND sources AS s
OPTIONAL MATCH (s)<-[:FROM]-(other:Card)
WITH s, count(other) AS citing
WITH collect(CASE WHEN citing = 0 THEN s END) AS orphans,
     collect(CASE WHEN citing > 0 THEN s.id END) AS shared
FOREACH (o IN orphans | DETACH DELETE o)
RETURN shared
