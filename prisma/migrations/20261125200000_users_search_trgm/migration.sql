-- The users' search (GET /users?email=…&name=…: a case-insensitive substring, ILIKE '%…%') on
-- trigram indexes, so it does not read every user of the tenant: on 100,000 users a selective search
-- goes from a sequential scan to a bitmap index scan (bench/users-search.bench.ts). pg_trgm ships
-- with PostgreSQL's contrib and is a trusted extension (the database owner may create it); the
-- embedded database loads it (PGLITE_EXTENSIONS). The tenant is filtered by the tenant's indexes
-- beside these (a bitmap AND), and by RLS. In schema public whatever the search path (the migration
-- tests run migrations in fresh schemas of one database), and named with it below.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

-- CreateIndex
CREATE INDEX "users_email_trgm_idx" ON "users" USING GIN ("email" public.gin_trgm_ops);

-- CreateIndex
CREATE INDEX "users_first_name_trgm_idx" ON "users" USING GIN ("first_name" public.gin_trgm_ops);

-- CreateIndex
CREATE INDEX "users_last_name_trgm_idx" ON "users" USING GIN ("last_name" public.gin_trgm_ops);

-- Under row-level security (every tenant query), PostgreSQL uses an index for a condition only if its
-- function is LEAKPROOF, and ILIKE's (texticlike) is not marked so: without this, the indexes above
-- serve the owner's queries but never the tenant role's (measured on 100,000 users: a sequential scan
-- of ~0.4 s instead of a ~4 ms bitmap index scan). texticlike can raise an error only about a
-- malformed pattern, and our queries never take a row's value as the pattern, so it reveals nothing
-- of rows the policy hides. Marking a built-in function needs a superuser (the embedded database's
-- migrations run as one); elsewhere a DBA runs this statement, and the search still answers, slower.
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION pg_catalog.texticlike(text, text) LEAKPROOF;
  ELSE
    RAISE NOTICE 'users_search_trgm: not a superuser; run ALTER FUNCTION pg_catalog.texticlike(text, text) LEAKPROOF as one so the user search uses its indexes under row-level security';
  END IF;
END
$$;
