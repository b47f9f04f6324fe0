export { CORE_PERMISSIONS, PLATFORM_PERMISSIONS } from "./permissions/core.permissions";
export { syncPermissions } from "./permissions/permissions.sync";
export {
  ADMIN_ROLE_NAME,
  type ProvisionedTenant,
  provisionTenant,
  type TProvisionTenantInput,
  ZProvisionTenantInput,
} from "./tenants/provision-tenant";
export { type CreatedUser, insertUser } from "./users/insert-user";
export { type TCreateUserInput, ZCreateUserInput, ZEmail, ZPassword } from "./users/users.schema";
