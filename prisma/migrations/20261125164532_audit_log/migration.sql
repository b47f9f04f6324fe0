-- CreateTable
CREATE TABLE "audit_log" (
    "id" UUID NOT NULL,
    "tenant_id" UUID,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "user_id" UUID,
    "ip" VARCHAR(64),
    "user_agent" VARCHAR(512),
    "request_id" VARCHAR(128),
    "entity" VARCHAR(64) NOT NULL,
    "entity_id" VARCHAR(128),
    "action" VARCHAR(64) NOT NULL,
    "before" JSONB,
    "after" JSONB,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_log_tenant_id_occurred_at_id_idx" ON "audit_log"("tenant_id", "occurred_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_log_tenant_id_entity_entity_id_idx" ON "audit_log"("tenant_id", "entity", "entity_id");

-- CreateIndex
CREATE INDEX "audit_log_tenant_id_user_id_occurred_at_idx" ON "audit_log"("tenant_id", "user_id", "occurred_at" DESC);

-- Written by hand below: Prisma does not model policies, grants or triggers.
--
-- Append-only for the application's roles: they may INSERT and SELECT, never UPDATE, DELETE or
-- TRUNCATE (no grant), and a trigger refuses those statements for every role, the owner included,
-- so even a future careless GRANT cannot make the log editable. Retention (if ever) is a DBA's job:
-- ALTER TABLE audit_log DISABLE TRIGGER ... as the owner, on purpose.
CREATE OR REPLACE FUNCTION hisob_audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION hisob_audit_log_is_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION hisob_audit_log_is_append_only();

-- Tenant isolation, FORCEd like every tenant table. A tenant reads and writes its own entries.
-- Platform events (tenants, the global currency list, OIDC clients, signing keys, the CLI, a sign-in
-- with an unknown email) belong to no tenant (tenant_id NULL): only the platform tenant reads them.
-- A tenant transaction may add one (creating a tenant runs as the new tenant), never read one.
ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_log FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_read ON audit_log FOR SELECT TO hisob_tenant USING (
  tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid
  OR (tenant_id IS NULL AND EXISTS (
    SELECT 1 FROM tenants t WHERE t.id = NULLIF(current_setting('app.tenant_id', true), '')::uuid AND t.is_platform))
);
CREATE POLICY tenant_write ON audit_log FOR INSERT TO hisob_tenant
  WITH CHECK (tenant_id IS NULL OR tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
-- Sign-in attempts are recorded before a tenant is chosen.
CREATE POLICY system_write ON audit_log FOR INSERT TO hisob_system WITH CHECK (true);
-- The platform role reaches no tenant's rows: it records platform events only.
CREATE POLICY platform_write ON audit_log FOR INSERT TO hisob_platform WITH CHECK (tenant_id IS NULL);
GRANT SELECT, INSERT ON audit_log TO hisob_tenant;
GRANT INSERT ON audit_log TO hisob_system, hisob_platform;
