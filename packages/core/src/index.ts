export {
  type AccountService,
  createAccountService,
  type TAccountDto,
  ZAccountDto,
  ZUpdateAccountInput,
} from "./account/account.service";
export {
  type AuthService,
  createAuthService,
  DEFAULT_SESSION_LIFETIME_MS,
  type LoginResult,
  type PasswordVerifier,
  type Principal,
  ZLoginInput,
} from "./auth/auth.service";
export {
  type BearerVerifier,
  type ContextService,
  type Credentials,
  createContextService,
} from "./auth/context.service";
export {
  createLoginThrottle,
  createMemoryThrottleStore,
  type LoginThrottle,
  type ThrottleStore,
} from "./auth/login-throttle";
export { type CoreServiceDeps, type CoreServices, createCoreServices } from "./core-services";
export { CORE_PERMISSIONS, PLATFORM_PERMISSIONS } from "./permissions/core.permissions";
export { loadEffectivePermissions } from "./permissions/effective-permissions";
export { syncPermissions } from "./permissions/permissions.sync";
export { hashToken, newSessionToken } from "./sessions/session-token";
export {
  ADMIN_ROLE_NAME,
  type ProvisionedTenant,
  provisionTenant,
  type TProvisionTenantInput,
  ZProvisionTenantInput,
} from "./tenants/provision-tenant";
export { type CreatedUser, insertUser } from "./users/insert-user";
export {
  type TCreateUserInput,
  type TListUsersQuery,
  type TUpdateUserInput,
  type TUserDto,
  USER_SORT_FIELDS,
  ZAssignRolesInput,
  ZCreateUserInput,
  ZEmail,
  ZListUsersQuery,
  ZPassword,
  ZUpdateUserInput,
  ZUserDto,
} from "./users/users.schema";
export { createUsersService, type UsersService } from "./users/users.service";
