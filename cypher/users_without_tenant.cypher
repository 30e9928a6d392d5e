// Migration (graphmem/store/migrations.py): users whose cards may lack their full-text
// token, i.e. stored before tokens existed. Maintenance across tenants: returns ids only.
MATCH (u:User)
WHERE u.tenant IS NULL
RETURN u.user_id AS user_id
