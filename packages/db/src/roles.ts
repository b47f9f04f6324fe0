/**
 * Database roles the application switches to per transaction (`SET LOCAL ROLE`). None can log in;
 * the connecting role (the tables' owner) is a member of each. Created by the first RLS migration.
 * - TENANT: sees only rows whose tenant_id equals `app.tenant_id` (FORCEd row-level security).
 * - SYSTEM: the narrow pre-tenant lookups (login by email, session by token hash, outbox).
 * - PLATFORM: platform-wide tables only (currencies, permissions, OIDC); no tenant rows at all.
 */
export const DB_ROLES = {
  tenant: "hisob_tenant",
  system: "hisob_system",
  platform: "hisob_platform",
} as const;
export type DbRole = (typeof DB_ROLES)[keyof typeof DB_ROLES];
