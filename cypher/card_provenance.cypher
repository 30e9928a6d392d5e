// Everything about where a card came from and what became of it: every source it was
// stated in (the first, and repeats), the decisions that tie it to other cards with their
// reasons, the abstractions that include it.
MATCH (c:Card {user_id: $user_id, id: $id})
OPTIONAL MATCH (c)-[:ABOUT]->(p:Person)
OPTIONAL MATCH (:User {user_id: $user_id})-[k:KNOWS]->(p)
OPTIONAL MATCH (c)-[f:FROM]->(s:Source)
OPTIONAL MATCH (s)-[:IN]->(g)
OPTIONAL MATCH (c)-[os:SUPERSEDES]->(older:Card)
OPTIONAL MATCH (newer:Card)-[ns:SUPERSEDES]->(c)
OPTIONAL MATCH (c)-[x:CONFLICTS_WITH]-(other:Card)
OPTIONAL MATCH (a:Abstraction)-[:SUMMARIZES]->(c)
RETURN p.name AS person, k.relationship AS relationship, k.history AS relationship_history,
       c.forgotten_reason AS forgotten_reason, c.forgotten_at AS forgotten_at,
       collect(DISTINCT {source: s {.*}, evidence: f {.*}, container_label: head(labels(g)),
                         container: g {.*}}) AS sources,
       collect(DISTINCT {id: older.id, fact: older.fact, reason: os.reason,
                         decided_by: os.decided_by, decided_at: os.decided_at}) AS supersedes,
       collect(DISTINCT {id: newer.id, fact: newer.fact, reason: ns.reason,
                         decided_by: ns.decided_by, decided_at: ns.decided_at}) AS superseded_by,
       collect(DISTINCT {id: other.id, fact: other.fact, reason: x.reason,
                         decided_by: x.decided_by, decided_at: x.decided_at}) AS conflicts,
       collect(DISTINCT {id: a.id, summary: a.summary}) AS abstractions
