import { type AuditWho, type Db, type Outbox, type RawTenantTx, sqlParams, stageAudit } from "@hisob/db";
import { type Clock, newId } from "@hisob/kernel";
import {
  type ClientAuthRequest,
  type Clients,
  clientCredentials,
  type OidcClientRecord,
  verifyClient,
} from "../clients/clients";
import type { OidcConfig } from "../config";
import { clientAuthRequest, type FormParams, singleParam } from "../form-params";
import { OidcError } from "../oidc-error";
import { safeEqual, sha256Base64Url, sha256Hex } from "../opaque-token";
import {
  type GrantRow,
  type IdTokenSigner,
  type MintedTokens,
  mintTokens,
  type TokenResponse,
  tokenResponse,
} from "./grants";
import {
  consumeCodeAndCommit,
  type GrantAudit,
  readAuthorizationCode,
  readRefreshToken,
  revokeGrantSql,
  rotateRefreshTokenAndCommit,
} from "./token-sql";

type Body = FormParams;
const MAX_PARAM_LENGTH = 4096;
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** Form parameters must not repeat (RFC 6749 §3.2); returns the single value or undefined. */
const single = (body: Body, name: string): string | undefined => singleParam(body, name, MAX_PARAM_LENGTH);

/** RFC 7636 §4.6: the verifier must hash (S256) or equal (plain) the stored challenge. */
const pkceMatches = (method: string | null, challenge: string, verifier: string): boolean =>
  method === "S256" ? safeEqual(sha256Base64Url(verifier), challenge) : safeEqual(verifier, challenge);

type Outcome = { client: OidcClientRecord; grant: GrantRow; scope: string[]; minted: MintedTokens };

/** Where a token request came from (its audit entries say so). */
export type TokenRequestFrom = Pick<AuditWho, "requestId" | "client">;

/** What an audit entry of a grant says about it: which application, which scopes. */
const grantFacts = (client: OidcClientRecord, scope: string, extra: Record<string, unknown> = {}) => ({
  clientId: client.clientId,
  clientName: client.name,
  scope,
  ...extra,
});

/**
 * A grant revoked because its code or refresh token was presented again, recorded in the statement's own
 * transaction (which commits although the request fails): whose grant, which application, why.
 */
const auditReplay = async (
  tx: RawTenantTx,
  who: AuditWho,
  grantId: string,
  after: Record<string, unknown>,
): Promise<void> => {
  const params = sqlParams();
  const sql = stageAudit(
    params,
    who,
    "oidc_grant",
    grantId,
    "revoke_replay",
    { after },
    { from: "(SELECT 1) AS one" },
  );
  await tx.query(sql, params.values);
};

/** Why a grant was revoked on replay: an audit detail (apps/admin words it), not an error reason. */
type ReplayReason = "code_replayed" | "refresh_reused";

/**
 * A grant's audit entry (issued or refreshed: which application, which scopes), written by the very
 * statement that stores the tokens: no extra transaction, and no tokens without their entry.
 */
const grantAudit = (
  row: { tenantId: string; userId: string },
  client: OidcClientRecord,
  scope: string[],
  from: TokenRequestFrom,
): GrantAudit => ({
  who: { tenantId: row.tenantId, actor: { userId: row.userId }, ...from },
  after: grantFacts(client, scope.join(" ")),
});

/**
 * A code or refresh token presented again: someone holds a copy. The whole grant is revoked and the
 * revocation audited, in the statement's own transaction.
 */
const revokeReplayedGrant = async (
  tx: RawTenantTx,
  outbox: Outbox,
  replayed: { tenantId: string; userId: string; grantId: string; scope: string },
  client: OidcClientRecord,
  why: ReplayReason,
  now: Date,
  from: TokenRequestFrom,
): Promise<void> => {
  await revokeGrantSql(tx, outbox, replayed.tenantId, replayed.grantId, now);
  const who = { tenantId: replayed.tenantId, actor: { userId: replayed.userId }, ...from };
  await auditReplay(tx, who, replayed.grantId, grantFacts(client, replayed.scope, { reason: why }));
};

/**
 * POST /oidc/token. Each grant is one transaction in the credential's tenant through `db.rawTx`
 *, two round trips: one looks up the tenant, switches to it and reads the client with
 * the code or token, its grant, user and tenant; one writes what the grant produces, in one
 * statement, and commits. The client is read fresh in the first, so it needs no cache: deactivating
 * or re-keying a client counts from the next request on every instance. The ID token is signed after
 * the commit, holding no connection.
 */
export const createTokenEndpoint = (deps: {
  db: Db;
  /** Announces revoked grants (a replayed code, a reused refresh token). */
  outbox: Outbox;
  clients: Clients;
  config: OidcConfig;
  clock: Clock;
  signer: IdTokenSigner;
}) => {
  const { db, clock } = deps;

  const allowGrant = (client: OidcClientRecord, grantType: string) => {
    if (!client.grantTypes.includes(grantType)) {
      throw new OidcError("unauthorized_client", `The client may not use the ${grantType} grant`);
    }
  };

  const authorizationCode = async (
    request: ClientAuthRequest,
    credentials: { clientId: string; secret?: string },
    body: Body,
    from: TokenRequestFrom,
  ): Promise<Outcome> => {
    const code = single(body, "code");
    const redirectUri = single(body, "redirect_uri");
    const verifier = single(body, "code_verifier");
    if (!code || !redirectUri) {
      // The client's failure comes first, as for every other request.
      allowGrant(await deps.clients.authenticate(request), "authorization_code");
      throw new OidcError("invalid_request", `${code ? "redirect_uri" : "code"} is required`);
    }
    const invalid = () => new OidcError("invalid_grant", "Invalid authorization code");
    const codeHash = sha256Hex(code);

    // A replayed code revokes what it produced; that must commit even though the request fails.
    const outcome = await db.rawTx.withCredentialTenant(
      { kind: "oidcCode", hash: codeHash },
      async (tx): Promise<Outcome | OidcError> => {
        const read = await readAuthorizationCode(tx, credentials.clientId, codeHash);
        const client = verifyClient(read.client, credentials.secret);
        allowGrant(client, "authorization_code");
        const row = read.code;
        if (!row || row.clientId !== client.clientId) return invalid();
        const now = clock.now();
        if (row.consumedAt) {
          if (row.grantId) {
            const replayed = { ...row, grantId: row.grantId };
            await revokeReplayedGrant(tx, deps.outbox, replayed, client, "code_replayed", now, from);
          }
          return new OidcError("invalid_grant", "Authorization code already used");
        }
        if (row.expiresAt.getTime() <= now.getTime())
          return new OidcError("invalid_grant", "Authorization code expired");
        if (row.redirectUri !== redirectUri)
          return new OidcError("invalid_grant", "redirect_uri does not match the authorization request");
        if (row.codeChallenge) {
          if (!verifier) return new OidcError("invalid_grant", "code_verifier is required");
          if (
            !VERIFIER.test(verifier) ||
            !pkceMatches(row.codeChallengeMethod, row.codeChallenge, verifier)
          ) {
            return new OidcError("invalid_grant", "PKCE verification failed");
          }
        } else if (verifier) {
          // RFC 9700 §4.8.2: a verifier for a code issued without a challenge is a downgrade attempt.
          return new OidcError("invalid_grant", "code_verifier given but no code_challenge was used");
        }
        // Refuses tokens for users or tenants deactivated since they signed in.
        if (!row.userActive || !row.tenantActive)
          return new OidcError("invalid_grant", "The user is no longer active");
        const scope = row.scope.split(" ");
        const minted = mintTokens(deps, { client, scope, refreshScope: row.scope });
        const grantId = newId();
        // Single use, even under concurrent requests: only one UPDATE can win, and only the winner
        // creates the grant and stores the tokens (the same statement).
        const consumed = await consumeCodeAndCommit(tx, {
          tenantId: row.tenantId,
          codeId: row.id,
          grantId,
          at: now,
          access: minted.access,
          refresh: minted.refresh,
          audit: grantAudit(row, client, scope, from),
        });
        if (!consumed) return new OidcError("invalid_grant", "Authorization code already used");
        const grant: GrantRow = {
          id: grantId,
          tenantId: row.tenantId,
          clientId: client.clientId,
          userId: row.userId,
          sessionId: row.sessionId,
          scope: row.scope,
          nonce: row.nonce,
          authTime: row.authTime,
        };
        return { client, grant, scope, minted };
      },
    );
    if (outcome instanceof OidcError) throw outcome;
    return outcome;
  };

  const refreshToken = async (
    request: ClientAuthRequest,
    credentials: { clientId: string; secret?: string },
    body: Body,
    from: TokenRequestFrom,
  ): Promise<Outcome> => {
    const token = single(body, "refresh_token");
    const requestedScope = single(body, "scope");
    if (!token) {
      allowGrant(await deps.clients.authenticate(request), "refresh_token");
      throw new OidcError("invalid_request", "refresh_token is required");
    }
    const invalid = () => new OidcError("invalid_grant", "Invalid refresh token");
    const tokenHash = sha256Hex(token);

    const outcome = await db.rawTx.withCredentialTenant(
      { kind: "oidcToken", hash: tokenHash },
      async (tx): Promise<Outcome | OidcError> => {
        const read = await readRefreshToken(tx, credentials.clientId, tokenHash);
        const client = verifyClient(read.client, credentials.secret);
        allowGrant(client, "refresh_token");
        const row = read.token;
        if (!row || row.kind !== "refresh" || row.clientId !== client.clientId) return invalid();
        const now = clock.now();
        if (row.revokedAt || row.grantRevokedAt) return invalid();
        if (row.rotatedAt) {
          // Reuse of a rotated token: someone holds a copy. Revoke the whole family.
          await revokeReplayedGrant(tx, deps.outbox, row, client, "refresh_reused", now, from);
          return new OidcError("invalid_grant", "Refresh token already used");
        }
        if (row.expiresAt.getTime() <= now.getTime())
          return new OidcError("invalid_grant", "Refresh token expired");
        const granted = row.scope.split(" ");
        const scope = requestedScope ? [...new Set(requestedScope.split(" ").filter(Boolean))] : granted;
        const beyond = scope.filter((s) => !granted.includes(s));
        if (beyond.length > 0)
          return new OidcError("invalid_scope", `Scope exceeds the granted scope: ${beyond.join(" ")}`);
        if (!row.userActive || !row.tenantActive)
          return new OidcError("invalid_grant", "The user is no longer active");
        const minted = mintTokens(deps, { client, scope, refreshScope: row.scope });
        const rotated = await rotateRefreshTokenAndCommit(tx, {
          tenantId: row.tenantId,
          tokenId: row.id,
          grantId: row.grantId,
          at: now,
          access: minted.access,
          refresh: minted.refresh,
          audit: grantAudit(row, client, scope, from),
        });
        // Another request rotated it first: a reuse too, so the family is revoked. The rotation wrote
        // nothing and committed; the revocation is a transaction of its own in the same tenant.
        if (!rotated) {
          await revokeGrantSql(tx, deps.outbox, row.tenantId, row.grantId, now);
          return new OidcError("invalid_grant", "Refresh token already used");
        }
        const grant: GrantRow = {
          id: row.grantId,
          tenantId: row.tenantId,
          clientId: row.clientId,
          userId: row.userId,
          sessionId: row.sessionId,
          scope: row.scope,
          nonce: row.nonce,
          authTime: row.authTime,
        };
        return { client, grant, scope, minted };
      },
    );
    if (outcome instanceof OidcError) throw outcome;
    return outcome;
  };

  /** POST /oidc/token with a form body and, optionally, an Authorization: Basic header. */
  return async (
    body: Body,
    headers: { authorization?: string | undefined },
    from: TokenRequestFrom = {},
  ): Promise<TokenResponse> => {
    const grantType = single(body, "grant_type");
    if (!grantType) throw new OidcError("invalid_request", "grant_type is required");
    const request = clientAuthRequest(body, headers.authorization, MAX_PARAM_LENGTH);
    const credentials = clientCredentials(request);
    if (grantType !== "authorization_code" && grantType !== "refresh_token") {
      await deps.clients.authenticate(request);
      throw new OidcError("unsupported_grant_type", `Unsupported grant_type: ${grantType.slice(0, 50)}`);
    }
    const outcome =
      grantType === "authorization_code"
        ? await authorizationCode(request, credentials, body, from)
        : await refreshToken(request, credentials, body, from);
    return tokenResponse(deps, outcome);
  };
};

export type TokenEndpoint = ReturnType<typeof createTokenEndpoint>;
