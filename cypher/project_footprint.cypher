// Everything stored under one user, summed: nodes per label and status, outgoing edges,
// and the sum of card versions (any property change bumps it). For tests and notebooks:
// it scans all nodes.
MATCH (n {user_id: $user_id})
OPTIONAL MATCH (n)-[r]->()
WITH n, count(r) AS edges
RETURN head(labels(n)) AS label, coalesce(n.status, '') AS status, count(n) AS nodes,
       sum(edges) AS edges, sum(coalesce(n.version, 0)) AS versions
ORDER BY label, status
