export {
  type TAuditEntryDto,
  type TAuditFilters,
  type TListAuditQuery,
  ZAuditEntryDto,
  ZAuditFilters,
  ZListAuditQuery,
} from "./audit/audit.schema";
export { type AuditService, createAuditService, ZExportAuditQuery } from "./audit/audit.service";
export { ACT_IN_TENANT_HEADER } from "./auth/act-in-tenant";
export {
  type AttemptBudget,
  createAttemptBudget,
  createCoreBudgets,
  createMemoryThrottleStore,
  type Reservation,
  type TakeResult,
  type ThrottleStore,
} from "./auth/attempt-budget";
export { ZSignInMethods } from "./auth/auth.schema";
export {
  type AuthService,
  createAuthService,
  DEFAULT_SESSION_LIFETIME_MS,
  type LoginResult,
  type PasswordVerifier,
  type Principal,
  ZLoginInput,
} from "./auth/auth.service";
export { clientNetwork, UNKNOWN_NETWORK } from "./auth/client-network";
export {
  type CachedContext,
  type ContextService,
  type Credentials,
  createContextService,
  type LiveContext,
  sameCaller,
} from "./auth/context.service";
export { coreOperations } from "./core.operations";
export { type CoreServiceDeps, type CoreServices, createCoreServices } from "./core-services";
export {
  type TCurrencyDto,
  ZCreateCurrencyInput,
  ZCurrencyDto,
  ZSelectCurrenciesInput,
  ZUpdateCurrencyInput,
} from "./currencies/currencies.schema";
export { type CurrenciesService, createCurrenciesService } from "./currencies/currencies.service";
export { afterInOrder, EXPORT_MAX_ROWS, keysetBatches, listRows } from "./exports/keyset";
export { STREAM_BATCH, type StreamedStatement, streamedRows } from "./exports/streamed-rows";
export {
  type AnyExportSheet,
  type CellValue,
  type ExportColumn,
  type ExportSheet,
  moneyFormat,
  type PreparedExport,
  prepareXlsx,
  prepareXlsxWorkbook,
  writeXlsx,
  writeXlsxSheets,
  XLSX_CONTENT_TYPE,
} from "./exports/xlsx-exporter";
export {
  GROUP_SORT_FIELDS,
  type TAddGroupUsersInput,
  type TCreateGroupInput,
  type TGroupDto,
  type TListGroupsQuery,
  type TUpdateGroupInput,
  ZAddGroupUsersInput,
  ZCreateGroupInput,
  ZGroupDto,
  ZGroupMember,
  ZListGroupsQuery,
  ZUpdateGroupInput,
} from "./groups/groups.schema";
export { createGroupsService, type GroupsService } from "./groups/groups.service";
export { ACCESS_CHANGED, raiseAccessChanged } from "./permissions/access-changed";
export type { CorePermission } from "./permissions/core.permissions";
export { CORE_PERMISSIONS, PLATFORM_PERMISSIONS } from "./permissions/core.permissions";
export { loadEffectivePermissions } from "./permissions/effective-permissions";
export { syncPermissions } from "./permissions/permissions.sync";
export {
  createProfileService,
  type ProfileService,
  type TProfileDto,
  ZProfileDto,
  ZUpdateProfileInput,
} from "./profile/profile.service";
export {
  ROLE_SORT_FIELDS,
  type TAddRolePermissionsInput,
  type TCreateRoleInput,
  type TListRolesQuery,
  type TPermissionDto,
  type TRoleDto,
  type TUpdateRoleInput,
  ZAddRolePermissionsInput,
  ZCreateRoleInput,
  ZListRolesQuery,
  ZPermissionDto,
  ZRoleDto,
  ZRolePermissions,
  ZUpdateRoleInput,
} from "./roles/roles.schema";
export { createRolesService, type RolesService } from "./roles/roles.service";
export { SESSION_END_REASONS, type SessionEndReason } from "./sessions/end-sessions";
export { hashToken, looksLikeToken, newSessionToken } from "./sessions/session-token";
export { createSessionsService, type SessionsService, type TSessionDto } from "./sessions/sessions.service";
export {
  SETUP_STEPS,
  type TTenantSettingsDto,
  type TUpdateTenantSettingsInput,
  ZTenantSettingsDto,
  ZUpdateTenantSettingsInput,
} from "./settings/settings.schema";
export { createSettingsService, type SettingsService } from "./settings/settings.service";
export {
  ADMIN_ROLE_NAME,
  type ProvisionedTenant,
  provisionTenant,
  type TProvisionTenantInput,
  ZProvisionTenantInput,
} from "./tenants/provision-tenant";
export {
  type TTenantDto,
  type TTenantFirstAdmin,
  ZCreateTenantInput,
  ZListTenantsQuery,
  ZTenantDto,
  ZTenantFirstAdmin,
  ZUpdateTenantInput,
} from "./tenants/tenants.schema";
export { createTenantsService, type TenantsService } from "./tenants/tenants.service";
export { createUploadStorage, type UploadStorageConfig } from "./uploads/create-storage";
export { sniffMimeType } from "./uploads/sniff";
export type { UploadStorage } from "./uploads/storage";
export {
  cleanFileName,
  MAX_UPLOAD_BYTES,
  type TUploadDto,
  ZListUploadsQuery,
  ZUploadDto,
} from "./uploads/uploads.schema";
export { createUploadsService, type UploadsService } from "./uploads/uploads.service";
export { type CreatedUser, insertUser } from "./users/insert-user";
export { ZExportUsersQuery } from "./users/users.export";
export {
  type TCreateUserInput,
  type TListUsersQuery,
  type TUpdateUserInput,
  type TUserDto,
  type TUserListing,
  USER_FILTERS,
  USER_SORT_FIELDS,
  ZAssignRolesInput,
  ZCreateUserInput,
  ZEmail,
  ZListUsersQuery,
  ZPassword,
  ZSetUserGroupsInput,
  ZUpdateUserInput,
  ZUserDto,
} from "./users/users.schema";
export { createUsersService, type UsersService } from "./users/users.service";
