import { DB_ROLES } from "./roles";

/** The credentials whose tenant may be looked up before it is known (as `hisob_system`). */
const CREDENTIAL_TENANT = {
  oidcToken: "SELECT tenant_id::text FROM oidc_tokens WHERE token_hash = '%'",
  oidcCode: "SELECT tenant_id::text FROM oidc_authorization_codes WHERE code_hash = '%'",
  /** A login session (the OpenID provider's authorization endpoint, signed in by the cookie). */
  session: "SELECT tenant_id::text FROM sessions WHERE token_hash = '%'",
} as const;
export type CredentialKind = keyof typeof CREDENTIAL_TENANT;
export type Credential = { kind: CredentialKind; hash: string };

const HASH = /^[0-9a-f]{64}$/;

/**
 * Statements that make a transaction see only the tenant that `credential` belongs to (nothing at
 * all when no such credential exists). The tenant is looked up as `hisob_system` in the statement
 * that then sets it and switches to `hisob_tenant` (each statement is planned after the previous one
 * ran, in a simple query as in a pipeline, so the lookup is planned and checked as the system role).
 * The hash is written as a literal, validated first (64 hex digits). `settings`: further
 * transaction-local `set_config(…, true)` expressions, set by the first statement.
 */
export const credentialScope = (
  credential: Credential,
  settings: readonly string[] = [],
): [string, string] => {
  if (!HASH.test(credential.hash)) throw new Error("A credential lookup needs a SHA-256 hex hash");
  const lookup = CREDENTIAL_TENANT[credential.kind].replace("%", credential.hash);
  return [
    `SELECT ${[`set_config('role', '${DB_ROLES.system}', true)`, ...settings].join(", ")}`,
    `SELECT set_config('app.tenant_id', coalesce((${lookup}), ''), true), ` +
      `set_config('role', '${DB_ROLES.tenant}', true)`,
  ];
};
