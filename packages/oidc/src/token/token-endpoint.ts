import type { Db } from "@hisob/db";
import type { Clock } from "@hisob/kernel";
import type { Clients, OidcClientRecord } from "../clients/clients";
import type { OidcConfig } from "../config";
import { OidcError } from "../oidc-error";
import { safeEqual, sha256Base64Url, sha256Hex } from "../opaque-token";
import {
  type IdTokenSigner,
  issueTokens,
  requireActiveUser,
  revokeGrant,
  type TokenResponse,
} from "./grants";

type Body = Record<string, string | string[] | undefined>;
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** Form parameters must not repeat (RFC 6749 §3.2); returns the single value or undefined. */
const single = (body: Body, name: string): string | undefined => {
  const value = body[name];
  if (Array.isArray(value)) throw new OidcError("invalid_request", `Parameter ${name} must not repeat`);
  if (value !== undefined && value.length > 4096)
    throw new OidcError("invalid_request", `Parameter ${name} is too long`);
  return value === "" ? undefined : value;
};

/** RFC 7636 §4.6: the verifier must hash (S256) or equal (plain) the stored challenge. */
const pkceMatches = (method: string | null, challenge: string, verifier: string): boolean =>
  method === "S256" ? safeEqual(sha256Base64Url(verifier), challenge) : safeEqual(verifier, challenge);

export const createTokenEndpoint = (deps: {
  db: Db;
  clients: Clients;
  config: OidcConfig;
  clock: Clock;
  signer: IdTokenSigner;
}) => {
  const { db, clock } = deps;

  const authorizationCode = async (client: OidcClientRecord, body: Body): Promise<TokenResponse> => {
    const code = single(body, "code");
    const redirectUri = single(body, "redirect_uri");
    const verifier = single(body, "code_verifier");
    if (!code) throw new OidcError("invalid_request", "code is required");
    if (!redirectUri) throw new OidcError("invalid_request", "redirect_uri is required");
    const invalid = () => new OidcError("invalid_grant", "Invalid authorization code");
    const codeHash = sha256Hex(code);
    const tenantId = await db.system.findOidcCodeTenant(codeHash);
    if (!tenantId) throw invalid();

    // A replayed code revokes what it produced; that must commit even though the request fails.
    const outcome = await db.withTenant(tenantId, async (tx): Promise<TokenResponse | OidcError> => {
      const row = await tx.oidcAuthorizationCode.findUnique({ where: { codeHash } });
      if (!row || row.tenantId !== tenantId) return invalid();
      if (row.clientId !== client.clientId) return invalid();
      const now = clock.now();
      if (row.consumedAt) {
        if (row.grantId) await revokeGrant(tx, tenantId, row.grantId, now);
        return new OidcError("invalid_grant", "Authorization code already used");
      }
      if (row.expiresAt.getTime() <= now.getTime())
        return new OidcError("invalid_grant", "Authorization code expired");
      if (row.redirectUri !== redirectUri)
        return new OidcError("invalid_grant", "redirect_uri does not match the authorization request");
      if (row.codeChallenge) {
        if (!verifier) return new OidcError("invalid_grant", "code_verifier is required");
        if (!VERIFIER.test(verifier) || !pkceMatches(row.codeChallengeMethod, row.codeChallenge, verifier)) {
          return new OidcError("invalid_grant", "PKCE verification failed");
        }
      } else if (verifier) {
        // RFC 9700 §4.8.2: a verifier for a code issued without a challenge is a downgrade attempt.
        return new OidcError("invalid_grant", "code_verifier given but no code_challenge was used");
      }
      // Single use, even under concurrent requests: only one UPDATE can win.
      const consumed = await tx.oidcAuthorizationCode.updateMany({
        where: { id: row.id, consumedAt: null },
        data: { consumedAt: now },
      });
      if (consumed.count === 0) return new OidcError("invalid_grant", "Authorization code already used");
      await requireActiveUser(tx, tenantId, row.userId);
      const grant = await tx.oidcGrant.create({
        data: {
          tenantId,
          clientId: client.clientId,
          userId: row.userId,
          sessionId: row.sessionId,
          scope: row.scope,
          nonce: row.nonce,
          authTime: row.authTime,
        },
      });
      await tx.oidcAuthorizationCode.update({ where: { id: row.id }, data: { grantId: grant.id } });
      const scope = row.scope.split(" ");
      return issueTokens(tx, deps, { grant, client, scope, refreshScope: row.scope });
    });
    if (outcome instanceof OidcError) throw outcome;
    return outcome;
  };

  const refreshToken = async (client: OidcClientRecord, body: Body): Promise<TokenResponse> => {
    const token = single(body, "refresh_token");
    const requestedScope = single(body, "scope");
    if (!token) throw new OidcError("invalid_request", "refresh_token is required");
    const invalid = () => new OidcError("invalid_grant", "Invalid refresh token");
    const tokenHash = sha256Hex(token);
    const tenantId = await db.system.findOidcTokenTenant(tokenHash);
    if (!tenantId) throw invalid();

    const outcome = await db.withTenant(tenantId, async (tx): Promise<TokenResponse | OidcError> => {
      const row = await tx.oidcToken.findUnique({ where: { tokenHash }, include: { grant: true } });
      if (!row || row.kind !== "refresh" || row.grant.clientId !== client.clientId) return invalid();
      const now = clock.now();
      if (row.revokedAt || row.grant.revokedAt) return invalid();
      if (row.rotatedAt) {
        // Reuse of a rotated token: someone holds a copy. Revoke the whole family.
        await revokeGrant(tx, tenantId, row.grantId, now);
        return new OidcError("invalid_grant", "Refresh token already used");
      }
      if (row.expiresAt.getTime() <= now.getTime())
        return new OidcError("invalid_grant", "Refresh token expired");
      const granted = row.scope.split(" ");
      const scope = requestedScope ? [...new Set(requestedScope.split(" ").filter(Boolean))] : granted;
      const beyond = scope.filter((s) => !granted.includes(s));
      if (beyond.length > 0)
        return new OidcError("invalid_scope", `Scope exceeds the granted scope: ${beyond.join(" ")}`);
      const rotated = await tx.oidcToken.updateMany({
        where: { id: row.id, rotatedAt: null },
        data: { rotatedAt: now },
      });
      if (rotated.count === 0) {
        await revokeGrant(tx, tenantId, row.grantId, now);
        return new OidcError("invalid_grant", "Refresh token already used");
      }
      await requireActiveUser(tx, tenantId, row.grant.userId);
      return issueTokens(tx, deps, { grant: row.grant, client, scope, refreshScope: row.scope });
    });
    if (outcome instanceof OidcError) throw outcome;
    return outcome;
  };

  /** POST /oidc/token with a form body and, optionally, an Authorization: Basic header. */
  return async (body: Body, headers: { authorization?: string | undefined }): Promise<TokenResponse> => {
    const grantType = single(body, "grant_type");
    if (!grantType) throw new OidcError("invalid_request", "grant_type is required");
    const client = await deps.clients.authenticate({
      authorization: headers.authorization,
      clientId: single(body, "client_id"),
      clientSecret: single(body, "client_secret"),
    });
    if (grantType !== "authorization_code" && grantType !== "refresh_token") {
      throw new OidcError("unsupported_grant_type", `Unsupported grant_type: ${grantType.slice(0, 50)}`);
    }
    if (!client.grantTypes.includes(grantType)) {
      throw new OidcError("unauthorized_client", `The client may not use the ${grantType} grant`);
    }
    return grantType === "authorization_code" ? authorizationCode(client, body) : refreshToken(client, body);
  };
};

export type TokenEndpoint = ReturnType<typeof createTokenEndpoint>;
