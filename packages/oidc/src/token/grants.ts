import type { Clock } from "@hisob/kernel";
import type { OidcClientRecord } from "../clients/clients";
import type { OidcConfig } from "../config";
import { newOpaqueToken, sha256Hex } from "../opaque-token";
import type { NewToken } from "./token-sql";

/** What the signing-key module gives the token endpoint (see keys/). */
export type IdTokenSigner = {
  signJwt(
    claims: Record<string, unknown>,
    options: { expiresInSeconds: number; audience: string; issuer: string; subject: string },
  ): Promise<string>;
  atHash(accessToken: string): string;
};

export type TokenResponse = {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token?: string;
  id_token?: string;
  scope: string;
};

export type GrantRow = {
  id: string;
  tenantId: string;
  clientId: string;
  userId: string;
  sessionId: string;
  scope: string;
  nonce: string | null;
  authTime: Date;
};

/** Tokens minted for a grant, not stored yet: the caller stores their hashes in its one statement. */
export type MintedTokens = {
  accessToken: string;
  refreshToken?: string;
  access: NewToken;
  refresh?: NewToken;
};

/** A client's own token lifetimes (seconds), each falling back to the server's (decision 0085). */
export const lifetimesOf = (config: OidcConfig, client: OidcClientRecord) => ({
  access: client.accessTokenLifetime ?? config.accessTokenLifetime,
  refresh: client.refreshTokenLifetime ?? config.refreshTokenLifetime,
  id: client.idTokenLifetime ?? config.idTokenLifetime,
});

/**
 * Mints an access token (opaque, stored hashed: revocation is immediate) and a refresh token when the
 * client may refresh and `offline_access` was granted.
 */
export const mintTokens = (
  deps: { config: OidcConfig; clock: Clock },
  input: { client: OidcClientRecord; scope: string[]; refreshScope: string },
): MintedTokens => {
  const now = deps.clock.now().getTime();
  const lifetimes = lifetimesOf(deps.config, input.client);
  const accessToken = newOpaqueToken();
  const minted: MintedTokens = {
    accessToken,
    access: {
      tokenHash: sha256Hex(accessToken),
      scope: input.scope.join(" "),
      expiresAt: new Date(now + lifetimes.access * 1000),
    },
  };
  if (
    input.client.grantTypes.includes("refresh_token") &&
    input.refreshScope.split(" ").includes("offline_access")
  ) {
    const refreshToken = newOpaqueToken();
    minted.refreshToken = refreshToken;
    minted.refresh = {
      tokenHash: sha256Hex(refreshToken),
      scope: input.refreshScope,
      expiresAt: new Date(now + lifetimes.refresh * 1000),
    };
  }
  return minted;
};

/** The token response for stored tokens, with an RS256 ID token when `openid` is in scope. */
export const tokenResponse = async (
  deps: { config: OidcConfig; signer: IdTokenSigner },
  input: { grant: GrantRow; client: OidcClientRecord; scope: string[]; minted: MintedTokens },
): Promise<TokenResponse> => {
  const { config, signer } = deps;
  const { grant, client, scope, minted } = input;
  const lifetimes = lifetimesOf(config, client);
  const idToken = scope.includes("openid")
    ? await signer.signJwt(
        {
          auth_time: Math.floor(grant.authTime.getTime() / 1000),
          ...(grant.nonce ? { nonce: grant.nonce } : {}),
          at_hash: signer.atHash(minted.accessToken),
          azp: client.clientId,
          sid: grant.sessionId,
        },
        {
          expiresInSeconds: lifetimes.id,
          audience: client.clientId,
          issuer: config.issuer,
          subject: grant.userId,
        },
      )
    : undefined;
  return {
    access_token: minted.accessToken,
    token_type: "Bearer",
    expires_in: lifetimes.access,
    ...(minted.refreshToken ? { refresh_token: minted.refreshToken } : {}),
    ...(idToken ? { id_token: idToken } : {}),
    scope: scope.join(" "),
  };
};
