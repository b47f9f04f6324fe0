import {
  type AuditWho,
  auditStep,
  auditStepValues,
  type Outbox,
  type RawTenantTx,
  sqlParams,
} from "@hisob/db";
import { newId } from "@hisob/kernel";
import { CLIENT_ID, type OidcClientRecord } from "../clients/clients";
import { stageTokensRevoked } from "../events";

/*
 * The token endpoint's and userinfo's statements, in SQL on the driver: the endpoint's
 * in `db.rawTx.withCredentialTenant`, userinfo's read there too, as its one statement. One round
 * trip reads the credential with its grant, user, tenant and client; one more writes what the grant
 * produces and commits. Every text is fixed, its values parameters, so on PostgreSQL each is a
 * prepared statement of the connection (parsed and planned once, not per grant).
 */

/** Every statement here has a fixed text run on every grant: prepared (parsed and planned once per connection). */
const PREPARED = { prepared: true } as const;
/** A grant's write is its transaction's last statement: the transaction commits with it (raw-tenant.ts). */
const COMMITTED = { prepared: true, commit: true } as const;

/** A client id, or null (matches nothing) when it cannot be one of ours. */
export const clientIdParam = (clientId: string): string | null =>
  CLIENT_ID.test(clientId) ? clientId : null;

export const CLIENT_COLUMNS = `c.id AS c_id, c.client_id AS c_client_id, c.name AS c_name, c.secret_hash AS c_secret_hash,
  c.application_type AS c_application_type, c.redirect_uris AS c_redirect_uris,
  c.post_logout_redirect_uris AS c_post_logout_redirect_uris, c.grant_types AS c_grant_types,
  c.response_types AS c_response_types, c.scopes AS c_scopes, c.require_pkce AS c_require_pkce,
  c.is_first_party AS c_is_first_party, c.is_active AS c_is_active, c.web_origins AS c_web_origins,
  c.access_token_lifetime AS c_access_token_lifetime, c.refresh_token_lifetime AS c_refresh_token_lifetime,
  c.id_token_lifetime AS c_id_token_lifetime`;

export type ClientColumns = {
  c_id: string | null;
  c_client_id: string;
  c_name: string;
  c_secret_hash: string | null;
  c_application_type: string;
  c_redirect_uris: string[];
  c_post_logout_redirect_uris: string[];
  c_grant_types: string[];
  c_response_types: string[];
  c_scopes: string[];
  c_require_pkce: boolean;
  c_is_first_party: boolean;
  c_is_active: boolean;
  c_web_origins: string[] | null;
  c_access_token_lifetime: number | null;
  c_refresh_token_lifetime: number | null;
  c_id_token_lifetime: number | null;
};

export const toClient = (row: ClientColumns | undefined): OidcClientRecord | null =>
  row?.c_id
    ? {
        id: row.c_id,
        clientId: row.c_client_id,
        name: row.c_name,
        secretHash: row.c_secret_hash,
        applicationType: row.c_application_type,
        redirectUris: row.c_redirect_uris,
        postLogoutRedirectUris: row.c_post_logout_redirect_uris,
        grantTypes: row.c_grant_types,
        responseTypes: row.c_response_types,
        scopes: row.c_scopes,
        requirePkce: row.c_require_pkce,
        isFirstParty: row.c_is_first_party,
        isActive: row.c_is_active,
        webOrigins: row.c_web_origins ?? [],
        accessTokenLifetime: row.c_access_token_lifetime,
        refreshTokenLifetime: row.c_refresh_token_lifetime,
        idTokenLifetime: row.c_id_token_lifetime,
      }
    : null;

/** The grant a token or code belongs to, with the activity of its user and tenant. */
export type GrantState = {
  grantId: string;
  tenantId: string;
  clientId: string;
  userId: string;
  sessionId: string;
  nonce: string | null;
  authTime: Date;
  grantRevokedAt: Date | null;
  userActive: boolean;
  tenantActive: boolean;
};

/** The columns of a token's grant, user and tenant (`g`, `u`, `tn` in the statement). */
const GRANT_COLUMNS = `g.id AS grant_id, g.tenant_id, g.client_id, g.user_id, g.session_id, g.nonce, g.auth_time,
       g.revoked_at AS grant_revoked_at, u.is_active AS user_active, tn.is_active AS tenant_active`;

type GrantColumns = {
  grant_id: string;
  tenant_id: string;
  client_id: string;
  user_id: string;
  session_id: string;
  nonce: string | null;
  auth_time: Date;
  grant_revoked_at: Date | null;
  user_active: boolean;
  tenant_active: boolean;
};

const toGrantState = (row: GrantColumns): GrantState => ({
  grantId: row.grant_id,
  tenantId: row.tenant_id,
  clientId: row.client_id,
  userId: row.user_id,
  sessionId: row.session_id,
  nonce: row.nonce,
  authTime: row.auth_time,
  grantRevokedAt: row.grant_revoked_at,
  userActive: row.user_active,
  tenantActive: row.tenant_active,
});

export type RefreshRead = {
  client: OidcClientRecord | null;
  token:
    | (GrantState & {
        id: string;
        kind: string;
        scope: string;
        expiresAt: Date;
        rotatedAt: Date | null;
        revokedAt: Date | null;
        createdAt: Date;
      })
    | null;
};

type RefreshRow = ClientColumns &
  GrantColumns & {
    id: string | null;
    kind: string;
    scope: string;
    created_at: Date;
    expires_at: Date;
    rotated_at: Date | null;
    revoked_at: Date | null;
  };

// Statement texts are built once: a prepared statement is found by its text on every call.
const READ_REFRESH_TOKEN = `SELECT ${CLIENT_COLUMNS}, t.id, t.kind, t.scope, t.created_at, t.expires_at, t.rotated_at, t.revoked_at,
       ${GRANT_COLUMNS}
     FROM (SELECT 1) AS one
     LEFT JOIN oidc_clients c ON c.client_id = $1::text
     LEFT JOIN (oidc_tokens t
       JOIN oidc_grants g ON g.id = t.grant_id AND g.tenant_id = t.tenant_id
       JOIN users u ON u.id = g.user_id AND u.tenant_id = g.tenant_id
       JOIN tenants tn ON tn.id = g.tenant_id) ON t.token_hash = $2::text`;

/** One row always (LEFT JOINs): the client by id, and the token by hash with its grant, user and tenant. */
export const readRefreshToken = async (
  tx: RawTenantTx,
  clientId: string,
  tokenHash: string,
): Promise<RefreshRead> => {
  const [row] = await tx.query<RefreshRow>(
    READ_REFRESH_TOKEN,
    [clientIdParam(clientId), tokenHash],
    PREPARED,
  );
  if (!row) return { client: null, token: null };
  return {
    client: toClient(row),
    token: row.id
      ? {
          id: row.id,
          kind: row.kind,
          scope: row.scope,
          expiresAt: row.expires_at,
          rotatedAt: row.rotated_at,
          revokedAt: row.revoked_at,
          createdAt: row.created_at,
          ...toGrantState(row),
        }
      : null,
  };
};

export type CodeRead = {
  client: OidcClientRecord | null;
  code: {
    id: string;
    tenantId: string;
    clientId: string;
    userId: string;
    sessionId: string;
    redirectUri: string;
    scope: string;
    nonce: string | null;
    codeChallenge: string | null;
    codeChallengeMethod: string | null;
    authTime: Date;
    expiresAt: Date;
    consumedAt: Date | null;
    grantId: string | null;
    userActive: boolean;
    tenantActive: boolean;
  } | null;
};

type CodeRow = ClientColumns & {
  id: string | null;
  tenant_id: string;
  client_id: string;
  user_id: string;
  session_id: string;
  redirect_uri: string;
  scope: string;
  nonce: string | null;
  code_challenge: string | null;
  code_challenge_method: string | null;
  auth_time: Date;
  expires_at: Date;
  consumed_at: Date | null;
  grant_id: string | null;
  user_active: boolean;
  tenant_active: boolean;
};

/**
 * One row always (LEFT JOINs): the client by id (`$1`) and the row of `table` (as `a`) whose hash
 * column is `$2`, with its user (`u`) and tenant (`tn`); `columns` are the row's columns to read.
 */
export const clientAndHashedRow = (columns: string, table: string, hashColumn: string) =>
  `SELECT ${CLIENT_COLUMNS}, ${columns}
     FROM (SELECT 1) AS one
     LEFT JOIN oidc_clients c ON c.client_id = $1::text
     LEFT JOIN (${table} a
       JOIN users u ON u.id = a.user_id AND u.tenant_id = a.tenant_id
       JOIN tenants tn ON tn.id = a.tenant_id) ON a.${hashColumn} = $2::text`;

const READ_AUTHORIZATION_CODE = clientAndHashedRow(
  `a.id, a.tenant_id, a.client_id, a.user_id, a.session_id, a.redirect_uri,
       a.scope, a.nonce, a.code_challenge, a.code_challenge_method, a.auth_time, a.expires_at,
       a.consumed_at, a.grant_id, u.is_active AS user_active, tn.is_active AS tenant_active`,
  "oidc_authorization_codes",
  "code_hash",
);

/** One row always: the client by id, and the authorization code by hash with its user and tenant. */
export const readAuthorizationCode = async (
  tx: RawTenantTx,
  clientId: string,
  codeHash: string,
): Promise<CodeRead> => {
  const [row] = await tx.query<CodeRow>(
    READ_AUTHORIZATION_CODE,
    [clientIdParam(clientId), codeHash],
    PREPARED,
  );
  if (!row) return { client: null, code: null };
  return {
    client: toClient(row),
    code: row.id
      ? {
          id: row.id,
          tenantId: row.tenant_id,
          clientId: row.client_id,
          userId: row.user_id,
          sessionId: row.session_id,
          redirectUri: row.redirect_uri,
          scope: row.scope,
          nonce: row.nonce,
          codeChallenge: row.code_challenge,
          codeChallengeMethod: row.code_challenge_method,
          authTime: row.auth_time,
          expiresAt: row.expires_at,
          consumedAt: row.consumed_at,
          grantId: row.grant_id,
          userActive: row.user_active,
          tenantActive: row.tenant_active,
        }
      : null,
  };
};

/**
 * Marks a grant and every token of its family revoked (revocation, code replay, refresh reuse) and
 * announces it (OidcTokensRevoked, once, when the grant was live), one statement.
 */
export const revokeGrantSql = async (
  tx: RawTenantTx,
  outbox: Outbox,
  tenantId: string,
  grantId: string,
  at: Date,
) => {
  const params = sqlParams();
  const [tenant, grant, when] = [params.add(tenantId), params.add(grantId), params.add(at)];
  const announced = stageTokensRevoked(tx, outbox, params, tenantId, "revoked_grant", { grantId });
  await tx.query(
    `WITH revoked_grant AS (
       UPDATE oidc_grants SET revoked_at = ${when}::timestamptz
        WHERE tenant_id = ${tenant}::uuid AND id = ${grant}::uuid AND revoked_at IS NULL
       RETURNING user_id),
     revoked_tokens AS (
       UPDATE oidc_tokens SET revoked_at = ${when}::timestamptz
        WHERE tenant_id = ${tenant}::uuid AND grant_id = ${grant}::uuid AND revoked_at IS NULL)
     ${announced.sql}`,
    params.values,
    PREPARED,
  );
};

/** Revokes one access token and announces it (OidcTokensRevoked for its grant's user), one statement. */
export const revokeAccessTokenSql = async (
  tx: RawTenantTx,
  outbox: Outbox,
  tenantId: string,
  tokenId: string,
  at: Date,
) => {
  const params = sqlParams();
  const [tenant, token, when] = [params.add(tenantId), params.add(tokenId), params.add(at)];
  const announced = stageTokensRevoked(tx, outbox, params, tenantId, "revoked_token");
  await tx.query(
    `WITH revoked_token AS (
       UPDATE oidc_tokens t SET revoked_at = ${when}::timestamptz
         FROM oidc_grants g
        WHERE t.tenant_id = ${tenant}::uuid AND t.id = ${token}::uuid AND t.revoked_at IS NULL
          AND g.tenant_id = t.tenant_id AND g.id = t.grant_id
       RETURNING g.user_id)
     ${announced.sql}`,
    params.values,
    PREPARED,
  );
};

/**
 * The row is found by its primary key; its tenant is checked (besides row-level security) in a form
 * no index serves. With `tenant_id = $1`, a table without statistics yet (a young database, or
 * before autovacuum's first ANALYZE) ties the (tenant_id, …) index with the key, and PostgreSQL may
 * pick the former and walk every code or token of the tenant for each grant (seen: a code exchange
 * reading all 300 codes of its tenant, in a plan a prepared statement then keeps).
 */
const SAME_TENANT = "tenant_id IS NOT DISTINCT FROM $1::uuid";

/** A token to store: its hash, scope and expiry. */
export type NewToken = { tokenHash: string; scope: string; expiresAt: Date };

/** The `VALUES` of an access token and an optional refresh token, parameters from `$first`. */
const tokenValues = (first: number) => {
  const p = (i: number) => `$${first + i}`;
  return `(VALUES (${p(0)}::uuid, 'access', ${p(1)}::text, ${p(2)}::text, ${p(3)}::timestamptz),
                   (${p(4)}::uuid, 'refresh', ${p(5)}::text, ${p(6)}::text, ${p(7)}::timestamptz))
          AS v(id, kind, token_hash, scope, expires_at)`;
};
const tokenParams = (access: NewToken, refresh: NewToken | undefined) => [
  newId(),
  access.tokenHash,
  access.scope,
  access.expiresAt.toISOString(),
  refresh ? newId() : null,
  refresh?.tokenHash ?? null,
  refresh?.scope ?? null,
  refresh?.expiresAt.toISOString() ?? null,
];

// The audit step's parameters follow the tokens' ($4–$11 after a rotation, $5–$12 after a code).
/** A grant's audit entry, written by the statement that stores its tokens (no transaction of its own). */
export type GrantAudit = { who: AuditWho; after: Record<string, unknown> };
const grantAuditValues = (audit: GrantAudit, grantId: string, action: "issue" | "refresh") =>
  auditStepValues(audit.who, "oidc_grant", grantId, action, { after: audit.after });

const ROTATE_REFRESH_TOKEN = `WITH rotated AS (
       UPDATE oidc_tokens SET rotated_at = $3
       WHERE id = $2 AND rotated_at IS NULL AND ${SAME_TENANT}
       RETURNING tenant_id, grant_id),
     audited AS (${auditStep(12, "rotated")})
     INSERT INTO oidc_tokens (id, tenant_id, grant_id, kind, token_hash, scope, expires_at)
     SELECT v.id, r.tenant_id, r.grant_id, v.kind, v.token_hash, v.scope, v.expires_at
     FROM rotated r CROSS JOIN ${tokenValues(4)}
     WHERE v.token_hash IS NOT NULL
     RETURNING kind`;

/**
 * Rotates a refresh token and stores its successors in one statement, and commits (the same round
 * trip); false when another request rotated it first (nothing is then stored).
 */
export const rotateRefreshTokenAndCommit = async (
  tx: RawTenantTx,
  input: {
    tenantId: string;
    tokenId: string;
    grantId: string;
    at: Date;
    access: NewToken;
    refresh?: NewToken | undefined;
    audit: GrantAudit;
  },
): Promise<boolean> => {
  const rows = await tx.query<{ kind: string }>(
    ROTATE_REFRESH_TOKEN,
    [
      input.tenantId,
      input.tokenId,
      input.at.toISOString(),
      ...tokenParams(input.access, input.refresh),
      ...grantAuditValues(input.audit, input.grantId, "refresh"),
    ],
    COMMITTED,
  );
  return rows.length > 0;
};

const CONSUME_CODE = `WITH consumed AS (
       UPDATE oidc_authorization_codes SET consumed_at = $3, grant_id = $4
       WHERE id = $2 AND consumed_at IS NULL AND ${SAME_TENANT}
       RETURNING tenant_id, client_id, user_id, session_id, scope, nonce, auth_time),
     new_grant AS (
       INSERT INTO oidc_grants (id, tenant_id, client_id, user_id, session_id, scope, nonce, auth_time)
       SELECT $4, tenant_id, client_id, user_id, session_id, scope, nonce, auth_time FROM consumed
       RETURNING id, tenant_id),
     audited AS (${auditStep(13, "new_grant")})
     INSERT INTO oidc_tokens (id, tenant_id, grant_id, kind, token_hash, scope, expires_at)
     SELECT v.id, g.tenant_id, g.id, v.kind, v.token_hash, v.scope, v.expires_at
     FROM new_grant g CROSS JOIN ${tokenValues(5)}
     WHERE v.token_hash IS NOT NULL
     RETURNING kind`;

/**
 * Consumes an authorization code, creates its grant, links the code to it and stores the tokens,
 * in one statement, and commits (the same round trip); false when another request consumed the code
 * first (nothing is then stored).
 */
export const consumeCodeAndCommit = async (
  tx: RawTenantTx,
  input: {
    tenantId: string;
    codeId: string;
    grantId: string;
    at: Date;
    access: NewToken;
    refresh?: NewToken | undefined;
    audit: GrantAudit;
  },
): Promise<boolean> => {
  const rows = await tx.query<{ kind: string }>(
    CONSUME_CODE,
    [
      input.tenantId,
      input.codeId,
      input.at.toISOString(),
      input.grantId,
      ...tokenParams(input.access, input.refresh),
      ...grantAuditValues(input.audit, input.grantId, "issue"),
    ],
    COMMITTED,
  );
  return rows.length > 0;
};

/** An access token with everything that decides whether it is valid, and the claims userinfo gives. */
export type AccessTokenRead = GrantState & {
  kind: string;
  scope: string;
  expiresAt: Date;
  revokedAt: Date | null;
  clientActive: boolean | null;
  firstName: string;
  lastName: string;
  email: string;
  avatarUrl: string | null;
  updatedAt: Date;
};

type AccessRow = GrantColumns & {
  kind: string;
  scope: string;
  expires_at: Date;
  revoked_at: Date | null;
  client_active: boolean | null;
  first_name: string;
  last_name: string;
  email: string;
  avatar_url: string | null;
  updated_at: Date;
};

/** The statement that reads an access token by hash, `$1` (userinfo's one statement in `db.rawTx.withCredentialTenant`). */
export const ACCESS_TOKEN_STATEMENT = `SELECT t.kind, t.scope, t.expires_at, t.revoked_at, ${GRANT_COLUMNS}, c.is_active AS client_active,
     u.first_name, u.last_name, u.email, u.avatar_url, u.updated_at
   FROM oidc_tokens t
   JOIN oidc_grants g ON g.id = t.grant_id AND g.tenant_id = t.tenant_id
   JOIN users u ON u.id = g.user_id AND u.tenant_id = g.tenant_id
   JOIN tenants tn ON tn.id = g.tenant_id
   LEFT JOIN oidc_clients c ON c.client_id = g.client_id
   WHERE t.token_hash = $1::text`;

export const toAccessTokenRead = (row: AccessRow | undefined): AccessTokenRead | null =>
  row
    ? {
        kind: row.kind,
        scope: row.scope,
        expiresAt: row.expires_at,
        revokedAt: row.revoked_at,
        ...toGrantState(row),
        clientActive: row.client_active,
        firstName: row.first_name,
        lastName: row.last_name,
        email: row.email,
        avatarUrl: row.avatar_url,
        updatedAt: row.updated_at,
      }
    : null;
export type { AccessRow };
