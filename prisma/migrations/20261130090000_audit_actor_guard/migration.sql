-- Audit entries a tenant or platform transaction writes cannot pose as another actor, and only the
-- system role writes failed sign-ins (docs/decisions/0020-audit-entries-not-forgeable.md).
--
-- Before, the tenant role could insert any entry into its own log or the platform's: one naming a
-- user of another organization or a made-up id as its author, and a `sign_in_failed` entry, the one
-- kind the append-only trigger lets the system role change afterwards (its id is derived from its
-- window, so a planted entry would have collected the counts of a window to come).
--
-- The actor of an entry (user_id) must be a user of the entry's organization, or a platform
-- administrator's user (they act in every organization: creating one writes its first admin's
-- entry in it). Checked by a narrow SECURITY DEFINER function: the tenant role cannot see other
-- organizations' users, the owner (a member of hisob_system) can. It answers one yes or no.
CREATE OR REPLACE FUNCTION hisob_audit_actor_may_write(p_user_id uuid, p_tenant_id uuid)
RETURNS boolean LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT EXISTS (
    SELECT 1 FROM users u JOIN tenants t ON t.id = u.tenant_id
     WHERE u.id = p_user_id AND (u.tenant_id = p_tenant_id OR t.is_platform))
$$;
REVOKE ALL ON FUNCTION hisob_audit_actor_may_write(uuid, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION hisob_audit_actor_may_write(uuid, uuid) TO hisob_tenant, hisob_platform;

ALTER POLICY tenant_write ON audit_log WITH CHECK (
  (tenant_id IS NULL OR tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid))
  AND action <> 'sign_in_failed'
  AND (user_id IS NULL OR hisob_audit_actor_may_write(user_id, tenant_id))
);
ALTER POLICY platform_write ON audit_log WITH CHECK (
  tenant_id IS NULL
  AND action <> 'sign_in_failed'
  AND (user_id IS NULL OR hisob_audit_actor_may_write(user_id, NULL))
);
