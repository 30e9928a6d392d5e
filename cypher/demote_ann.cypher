// Take up to $limit of one user's cards out of the vector index and route the user's
// vector searches back to exact cosine (first, so searches stay complete meanwhile).
// Run until it returns 0.
MATCH (u:User {user_id: $user_id})
SET u.ann = false
WITH u
MATCH (c:Card {user_id: $user_id})
WHERE c:AnnCard
WITH c
LIMIT $limit
REMOVE c:AnnCard
RETURN count(c) AS unlabelled
