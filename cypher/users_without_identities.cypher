// Migration (graphmem/store/migrations.py): users whose cards may lack their identity,
// i.e. stored before card ids came from the identity (scheme 2: fact, person and
// relationship, no time). Maintenance across tenants: returns ids only.
MATCH (u:User)
WHERE u.identity_scheme IS NULL
RETURN u.user_id AS user_id
