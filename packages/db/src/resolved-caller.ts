// The caller one statement resolves from a credential. A leaf (imports nothing of ours): tenant-scope,
// caller-check and system all use it, and system imports tenant-scope through raw-tenant.

/** Who a credential speaks for, as one statement resolves it (see the migration resolve_caller_in_one_statement). */
export type ResolvedCaller = {
  kind: "session" | "oidc";
  tenantId: string;
  userId: string;
  /** The login session (for an OIDC token: the one its grant belongs to). */
  sessionId: string;
  authTime: Date;
  expiresAt: Date;
  /** Not revoked, its user and tenant (and OIDC client) active, the client first-party. */
  usable: boolean;
  isPlatform: boolean;
  uiLanguage: string;
  /** Effective permissions, sorted. */
  permissions: string[];
};

/** A row of `hisob_resolve_caller` as the driver returns it. */
export type CallerRow = {
  kind: "session" | "oidc";
  tenant_id: string;
  user_id: string;
  session_id: string;
  auth_time: Date;
  expires_at: Date;
  usable: boolean;
  is_platform: boolean;
  ui_language: string;
  permissions: string[];
};

export const toResolvedCaller = (row: CallerRow): ResolvedCaller => ({
  kind: row.kind,
  tenantId: row.tenant_id,
  userId: row.user_id,
  sessionId: row.session_id,
  authTime: row.auth_time,
  expiresAt: row.expires_at,
  usable: row.usable,
  isPlatform: row.is_platform,
  uiLanguage: row.ui_language,
  permissions: row.permissions,
});
