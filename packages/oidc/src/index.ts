export type { ValidAccessToken } from "./access-tokens";
export {
  createOidcAdmin,
  OIDC_ADMIN_PERMISSIONS,
  type OidcAdmin,
  type OidcAdminCaller,
} from "./admin/oidc-admin";
export {
  type TOidcClientDto,
  type TRegisterClientInput,
  type TUpdateClientInput,
  ZOidcClientDto,
  ZRegisterClientInput,
  ZRegisteredClientDto,
  ZRotatedSecretDto,
  ZSigningKeyDto,
  ZUpdateClientInput,
} from "./admin/oidc-admin.schema";
export {
  type AuthorizeOutcome,
  type ConsentOutcome,
  type ConsentPrompt,
  type ConsentRefusal,
  type LoginSession,
  redirectTo,
} from "./authorize/authorize";
export {
  type CreatedClient,
  type OidcClientRecord,
  redirectUriMatches,
  type TCreateClientInput,
  ZCreateClientInput,
} from "./clients/clients";
export {
  DEFAULT_CODE_LIFETIME_SECONDS,
  DEFAULT_KEY_PROPAGATION_SECONDS,
  discoveryDocument,
  keyReloadIntervalMs,
  type OidcConfig,
  SUPPORTED_SCOPES,
} from "./config";
export type { EndSessionOutcome } from "./end-session";
export { OIDC_CLIENT_ACCESS_REVOKED, OIDC_TOKENS_REVOKED } from "./events";
export type { IntrospectionResponse } from "./introspect";
export { KeyDecryptionError, KeyStillNeededError, type SigningKeyInfo } from "./keys";
export { isOidcError, OidcError, type OidcErrorCode } from "./oidc-error";
export { createOidcProvider, DESKTOP_CLIENT_ID, type OidcProvider, type OidcProviderDeps } from "./provider";
export type { TokenResponse } from "./token/grants";
export type { UserInfo } from "./userinfo";
