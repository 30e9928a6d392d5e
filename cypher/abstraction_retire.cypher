// Remove abstractions no cluster matches any more (derived data: the cards stay).
UNWIND $ids AS id
MATCH (a:Abstraction {user_id: $user_id, id: id})
DETACH DELETE a
RETURN count(*) AS retired
