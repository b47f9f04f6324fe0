-- Row-level security: the second wall between tenants (ARCHITECTURE.md, "Tenancy").
-- Prisma does not model roles, policies or functions, so this migration is written by hand.
--
-- The application connects as the owner of the tables and switches, per transaction, to one of
-- three non-login roles (SET LOCAL ROLE): hisob_tenant (one tenant's rows, chosen by the
-- transaction-local setting app.tenant_id), hisob_system (the named pre-tenant lookups) and
-- hisob_platform (platform-wide tables only). FORCE makes the policies bind the owner too, and
-- a superuser stops being one after SET ROLE, so a query that forgets its tenant filter still
-- sees only its own tenant, on PGlite and PostgreSQL alike.
--
-- Roles are cluster-wide. If the migrating role may not create roles, a DBA creates these three
-- (NOLOGIN) and grants them to it; the block below then only checks membership.

DO $$
DECLARE
  r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['hisob_tenant', 'hisob_system', 'hisob_platform'] LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
      EXECUTE format('CREATE ROLE %I NOLOGIN', r);
    END IF;
    IF NOT pg_has_role(current_user, r, 'MEMBER') THEN
      EXECUTE format('GRANT %I TO %I', r, current_user);
    END IF;
  END LOOP;
END
$$;

GRANT USAGE ON SCHEMA public TO hisob_tenant, hisob_system, hisob_platform;

-- Every tenant-owned table calls this once, in the migration that creates it.
CREATE OR REPLACE FUNCTION hisob_protect_tenant_table(tbl regclass, tenant_column text DEFAULT 'tenant_id')
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', tbl);
  EXECUTE format(
    'CREATE POLICY tenant_isolation ON %s TO hisob_tenant'
    ' USING (%2$I = NULLIF(current_setting(''app.tenant_id'', true), '''')::uuid)'
    ' WITH CHECK (%2$I = NULLIF(current_setting(''app.tenant_id'', true), '''')::uuid)',
    tbl, tenant_column);
  EXECUTE format('CREATE POLICY system_access ON %s TO hisob_system USING (true) WITH CHECK (true)', tbl);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %s TO hisob_tenant, hisob_system', tbl);
END
$$;

-- Platform-wide tables: tenants read them, the platform role manages them; no row-level security.
CREATE OR REPLACE FUNCTION hisob_platform_table(tbl regclass)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('GRANT SELECT ON %s TO hisob_tenant, hisob_system', tbl);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %s TO hisob_platform', tbl);
END
$$;

SELECT hisob_protect_tenant_table('users');
SELECT hisob_protect_tenant_table('roles');
SELECT hisob_protect_tenant_table('role_permissions');
SELECT hisob_protect_tenant_table('user_roles');
SELECT hisob_protect_tenant_table('groups');
SELECT hisob_protect_tenant_table('group_users');
SELECT hisob_protect_tenant_table('group_roles');
SELECT hisob_protect_tenant_table('sessions');
SELECT hisob_protect_tenant_table('tenant_currencies');
SELECT hisob_protect_tenant_table('outbox_events');
-- A tenant sees its own tenant row (its id is the tenant id); the platform role manages all tenants.
SELECT hisob_protect_tenant_table('tenants', 'id');
CREATE POLICY platform_access ON tenants TO hisob_platform USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE ON tenants TO hisob_platform;

SELECT hisob_platform_table('permissions');
SELECT hisob_platform_table('currencies');
