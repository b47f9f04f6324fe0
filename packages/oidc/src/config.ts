/** Values the provider needs, from the server's env (the package never reads process.env). */
export type OidcConfig = {
  /** OIDC_ISSUER_URL without a trailing slash. */
  issuer: string;
  accessTokenLifetime: number;
  idTokenLifetime: number;
  refreshTokenLifetime: number;
  /** Seconds an authorization code stays usable (short: it only bridges a redirect). */
  codeLifetime: number;
  /**
   * Seconds a rotated signing key is published before it signs (docs/decisions/0079-oidc-key-rotation.md);
   * every instance must reload its keys within it. Default DEFAULT_KEY_PROPAGATION_SECONDS.
   */
  keyPropagationSeconds?: number;
  /** NODE_ENV=production: stricter redirect URIs (http only to native apps' loopback). */
  production: boolean;
};

export const DEFAULT_CODE_LIFETIME_SECONDS = 60;
/** Twice the longest time an instance waits before reloading its keys (a minute). */
export const DEFAULT_KEY_PROPAGATION_SECONDS = 120;

/** How often a running instance reloads its keys: at least twice within the propagation delay. */
export const keyReloadIntervalMs = (keyPropagationSeconds: number): number =>
  Math.max(1000, Math.min(60_000, Math.floor((keyPropagationSeconds * 1000) / 2)));

export const SUPPORTED_SCOPES = ["openid", "profile", "email", "offline_access"] as const;
export const SUPPORTED_GRANT_TYPES = ["authorization_code", "refresh_token"] as const;

export const discoveryDocument = (config: OidcConfig) => ({
  issuer: config.issuer,
  authorization_endpoint: `${config.issuer}/oidc/authorize`,
  token_endpoint: `${config.issuer}/oidc/token`,
  userinfo_endpoint: `${config.issuer}/oidc/userinfo`,
  jwks_uri: `${config.issuer}/oidc/keys`,
  revocation_endpoint: `${config.issuer}/oidc/revoke`,
  introspection_endpoint: `${config.issuer}/oidc/introspect`,
  end_session_endpoint: `${config.issuer}/oidc/end_session`,
  response_types_supported: ["code"],
  grant_types_supported: [...SUPPORTED_GRANT_TYPES],
  subject_types_supported: ["public"],
  id_token_signing_alg_values_supported: ["RS256"],
  scopes_supported: [...SUPPORTED_SCOPES],
  token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
  code_challenge_methods_supported: ["S256", "plain"],
});
