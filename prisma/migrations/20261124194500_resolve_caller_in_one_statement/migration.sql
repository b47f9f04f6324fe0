-- The caller of a request in one statement (issue 16): a session token or a first-party OIDC access
-- token (by its SHA-256) → tenant, user, activity of user, tenant and client, language and effective
-- permissions. Before this, resolving a caller took two or three transactions (a system lookup by
-- hash, then the user, tenant and permissions again as the tenant).
--
-- The function runs as its owner (SECURITY DEFINER), the role that owns the tables and, as a member
-- of hisob_system, may read across tenants: like the other system lookups it is narrow — it answers
-- only for the one credential whose hash it is given. EXECUTE is revoked from PUBLIC, so the tenant,
-- system and platform roles that application transactions switch to cannot call it.

-- Effective permissions of one user: the union over their roles and their groups' roles, sorted.
CREATE OR REPLACE FUNCTION hisob_effective_permissions(p_tenant_id uuid, p_user_id uuid)
RETURNS text[] LANGUAGE sql STABLE SET search_path = public, pg_temp AS $$
  SELECT COALESCE(array_agg(DISTINCT p.name ORDER BY p.name), ARRAY[]::text[])
    FROM (
      SELECT ur.role_id FROM user_roles ur WHERE ur.tenant_id = p_tenant_id AND ur.user_id = p_user_id
      UNION
      SELECT gr.role_id FROM group_users gu
        JOIN group_roles gr ON gr.tenant_id = gu.tenant_id AND gr.group_id = gu.group_id
       WHERE gu.tenant_id = p_tenant_id AND gu.user_id = p_user_id
    ) granted
    JOIN role_permissions rp ON rp.tenant_id = p_tenant_id AND rp.role_id = granted.role_id
    JOIN permissions p ON p.id = rp.permission_id
$$;

-- `p_kinds`: 'session' for a cookie; 'session,oidc' for a bearer token (a session token from
-- sign-in, or a first-party OIDC access token). Expiry is left to the caller (its clock).
CREATE OR REPLACE FUNCTION hisob_resolve_caller(p_token_hash text, p_kinds text)
RETURNS TABLE (
  kind text,
  tenant_id uuid,
  user_id uuid,
  session_id uuid,
  auth_time timestamptz,
  expires_at timestamptz,
  usable boolean,
  is_platform boolean,
  ui_language text,
  permissions text[]
)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
  WITH found AS (
    SELECT 'session'::text AS kind, s.tenant_id, s.user_id, s.id AS session_id, s.created_at AS auth_time,
           s.expires_at, true AS credential_ok
      FROM sessions s
     WHERE s.token_hash = p_token_hash AND 'session' = ANY (string_to_array(p_kinds, ','))
    UNION ALL
    SELECT 'oidc'::text, t.tenant_id, g.user_id, g.session_id, g.auth_time, t.expires_at,
           t.kind = 'access' AND t.revoked_at IS NULL AND g.revoked_at IS NULL
           AND COALESCE(c.is_active AND c.is_first_party, false)
      FROM oidc_tokens t
      JOIN oidc_grants g ON g.tenant_id = t.tenant_id AND g.id = t.grant_id
      LEFT JOIN oidc_clients c ON c.client_id = g.client_id
     WHERE t.token_hash = p_token_hash AND 'oidc' = ANY (string_to_array(p_kinds, ','))
  )
  SELECT f.kind, f.tenant_id, f.user_id, f.session_id, f.auth_time, f.expires_at,
         f.credential_ok AND u.is_active AND tn.is_active,
         tn.is_platform, u.ui_language,
         hisob_effective_permissions(f.tenant_id, f.user_id)
    FROM found f
    JOIN users u ON u.tenant_id = f.tenant_id AND u.id = f.user_id
    JOIN tenants tn ON tn.id = f.tenant_id
   LIMIT 1
$$;

REVOKE ALL ON FUNCTION hisob_resolve_caller(text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION hisob_effective_permissions(uuid, uuid) FROM PUBLIC;
