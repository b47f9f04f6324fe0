import type { Tx } from "@hisob/db";
import type { Clock } from "@hisob/kernel";
import type { OidcClientRecord } from "../clients/clients";
import type { OidcConfig } from "../config";
import { OidcError } from "../oidc-error";
import { newOpaqueToken, sha256Hex } from "../opaque-token";

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

/** Refuses tokens for users or tenants that were deactivated since they signed in. */
export const requireActiveUser = async (tx: Tx, tenantId: string, userId: string) => {
  const user = await tx.user.findFirst({
    where: { tenantId, id: userId },
    select: { isActive: true, tenant: { select: { isActive: true } } },
  });
  if (!user?.isActive || !user.tenant.isActive)
    throw new OidcError("invalid_grant", "The user is no longer active");
};

/** Marks a grant and every token of its family revoked (code replay, refresh reuse, revocation). */
export const revokeGrant = async (tx: Tx, tenantId: string, grantId: string, at: Date) => {
  await tx.oidcGrant.updateMany({
    where: { tenantId, id: grantId, revokedAt: null },
    data: { revokedAt: at },
  });
  await tx.oidcToken.updateMany({ where: { tenantId, grantId, revokedAt: null }, data: { revokedAt: at } });
};

/**
 * Issues an access token (opaque, stored hashed: revocation is immediate), a refresh token when the
 * client may refresh and `offline_access` was granted, and an RS256 ID token when `openid` is in scope.
 */
export const issueTokens = async (
  tx: Tx,
  deps: { config: OidcConfig; clock: Clock; signer: IdTokenSigner },
  input: { grant: GrantRow; client: OidcClientRecord; scope: string[]; refreshScope: string },
): Promise<TokenResponse> => {
  const { config, clock, signer } = deps;
  const { grant, client, scope } = input;
  const now = clock.now();
  const accessToken = newOpaqueToken();
  await tx.oidcToken.create({
    data: {
      tenantId: grant.tenantId,
      grantId: grant.id,
      kind: "access",
      tokenHash: sha256Hex(accessToken),
      scope: scope.join(" "),
      expiresAt: new Date(now.getTime() + config.accessTokenLifetime * 1000),
    },
  });
  let refreshToken: string | undefined;
  if (
    client.grantTypes.includes("refresh_token") &&
    input.refreshScope.split(" ").includes("offline_access")
  ) {
    refreshToken = newOpaqueToken();
    await tx.oidcToken.create({
      data: {
        tenantId: grant.tenantId,
        grantId: grant.id,
        kind: "refresh",
        tokenHash: sha256Hex(refreshToken),
        scope: input.refreshScope,
        expiresAt: new Date(now.getTime() + config.refreshTokenLifetime * 1000),
      },
    });
  }
  const idToken = scope.includes("openid")
    ? await signer.signJwt(
        {
          auth_time: Math.floor(grant.authTime.getTime() / 1000),
          ...(grant.nonce ? { nonce: grant.nonce } : {}),
          at_hash: signer.atHash(accessToken),
          azp: client.clientId,
          sid: grant.sessionId,
        },
        {
          expiresInSeconds: config.idTokenLifetime,
          audience: client.clientId,
          issuer: config.issuer,
          subject: grant.userId,
        },
      )
    : undefined;
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: config.accessTokenLifetime,
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
    ...(idToken ? { id_token: idToken } : {}),
    scope: scope.join(" "),
  };
};
