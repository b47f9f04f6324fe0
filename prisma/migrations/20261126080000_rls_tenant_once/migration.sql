-- Row-level security reads the transaction's tenant once per statement, not once per row.
--
-- A policy's `NULLIF(current_setting('app.tenant_id', true), '')::uuid` is a call of a STABLE
-- function: PostgreSQL evaluates it for every row a filter checks and, as the one-time filter under
-- a lookup repeated for each row of an outer query (a statement page's document probes, say), once
-- per repetition, with its text-to-uuid parse. Written as a scalar subquery it is an InitPlan: run
-- once when the statement first needs it, its value then compared as a parameter. Same rows, same
-- walls (the setting is read at the same point of the statement as before: lazily, when a policy is
-- first checked); only the repeated calls go.

CREATE OR REPLACE FUNCTION hisob_protect_tenant_table(tbl regclass, tenant_column text DEFAULT 'tenant_id')
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', tbl);
  EXECUTE format(
    'CREATE POLICY tenant_isolation ON %s TO hisob_tenant'
    ' USING (%2$I = (SELECT NULLIF(current_setting(''app.tenant_id'', true), '''')::uuid))'
    ' WITH CHECK (%2$I = (SELECT NULLIF(current_setting(''app.tenant_id'', true), '''')::uuid))',
    tbl, tenant_column);
  EXECUTE format('CREATE POLICY system_access ON %s TO hisob_system USING (true) WITH CHECK (true)', tbl);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %s TO hisob_tenant, hisob_system', tbl);
END
$$;

-- Every table of this schema protected so far: its policy rewritten in place. The tenant column is read off the
-- policy, which must be exactly the form hisob_protect_tenant_table wrote; anything else stops the
-- migration rather than being rewritten blind.
DO $$
DECLARE
  p record;
  tenant_column text;
BEGIN
  FOR p IN
    SELECT pol.polrelid::regclass AS tbl, pg_get_expr(pol.polqual, pol.polrelid) AS qual,
           pg_get_expr(pol.polwithcheck, pol.polrelid) AS with_check
      FROM pg_policy pol JOIN pg_class c ON c.oid = pol.polrelid
     WHERE pol.polname = 'tenant_isolation' AND c.relnamespace = current_schema()::regnamespace
  LOOP
    tenant_column := substring(p.qual FROM
      '^\((\w+) = \(NULLIF\(current_setting\(''app\.tenant_id''::text, true\), ''''::text\)\)::uuid\)$');
    IF tenant_column IS NULL OR p.with_check IS DISTINCT FROM p.qual THEN
      RAISE EXCEPTION 'tenant_isolation on % is not the expected policy: USING % WITH CHECK %',
        p.tbl, p.qual, p.with_check;
    END IF;
    EXECUTE format(
      'ALTER POLICY tenant_isolation ON %s'
      ' USING (%2$I = (SELECT NULLIF(current_setting(''app.tenant_id'', true), '''')::uuid))'
      ' WITH CHECK (%2$I = (SELECT NULLIF(current_setting(''app.tenant_id'', true), '''')::uuid))',
      p.tbl, tenant_column);
  END LOOP;
END
$$;

-- The audit log's own policies (20261125164532_audit_log), the same way.
ALTER POLICY tenant_read ON audit_log USING (
  tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid)
  OR (tenant_id IS NULL AND EXISTS (
    SELECT 1 FROM tenants t WHERE t.id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid) AND t.is_platform))
);
ALTER POLICY tenant_write ON audit_log
  WITH CHECK (tenant_id IS NULL OR tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid));
