import { registerPermissions } from "@hisob/kernel";

// The spec's table first ("Permissions"); other core permissions join it as their issues land.
export const CORE_PERMISSIONS = registerPermissions("core", {
  "users:create:all": "Create users",
  "users:read:all": "Read every user of the tenant",
  "users:read:own": "Read one's own user",
  "users:update:all": "Update every user of the tenant",
  "users:update:own": "Update one's own user",
  "users:delete:all": "Delete users",
  "roles:create:all": "Create roles",
  "roles:read:all": "Read roles",
  "roles:update:all": "Update roles and their permissions",
  "roles:delete:all": "Delete roles",
  "groups:create:all": "Create groups",
  "groups:read:all": "Read groups",
  "groups:update:all": "Update groups, their users and roles",
  "groups:delete:all": "Delete groups",
  "currencies:select:all": "Choose which currencies the tenant uses",
  "uploads:create:all": "Upload files",
  "uploads:read:all": "Read every upload of the tenant",
  "uploads:read:own": "Read one's own uploads",
  "uploads:delete:all": "Delete uploads",
  "uploads:delete:own": "Delete one's own uploads",
  "sessions:read:all": "List other users' sessions (everyone may list their own)",
  "sessions:delete:all": "End other users' sessions (everyone may end their own)",
  "audit:read:all": "Read and export the audit log",
});

// Managing tenants crosses tenant lines: only roles of the platform tenant may hold these.
export const PLATFORM_PERMISSIONS = registerPermissions(
  "core",
  {
    "tenants:create:all": "Create tenants (platform admin)",
    "tenants:read:all": "Read every tenant (platform admin)",
    "tenants:update:all": "Update and deactivate tenants (platform admin)",
    "currencies:create:all": "Add currencies to the global list (platform admin)",
    "currencies:update:all": "Change currencies of the global list (platform admin)",
  },
  { platformOnly: true },
);
export type CorePermission = (typeof CORE_PERMISSIONS)[number] | (typeof PLATFORM_PERMISSIONS)[number];
