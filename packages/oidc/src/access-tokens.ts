import type { Db } from "@hisob/db";
import type { Clock } from "@hisob/kernel";
import type { Clients } from "./clients/clients";
import { looksLikeOpaqueToken, sha256Hex } from "./opaque-token";
import {
  ACCESS_TOKEN_STATEMENT,
  type AccessRow,
  type AccessTokenRead,
  toAccessTokenRead,
} from "./token/token-sql";

export type ValidAccessToken = {
  tenantId: string;
  userId: string;
  clientId: string;
  sessionId: string;
  scope: string[];
};

export type ValidAccessTokenWithUser = ValidAccessToken & {
  user: { firstName: string; lastName: string; email: string; avatarUrl: string | null; updatedAt: Date };
};

/**
 * An access token → who it speaks for (with the user's claims), or null: unknown, expired, revoked,
 * its grant revoked, or its login session ended (the grant is then gone), or its user, tenant or
 * client deactivated. Tokens are opaque and looked up by hash on every use, so revocation takes effect
 * immediately. One round trip (`db.rawTx`): the tenant lookup, the switch to the tenant and
 * the read of token, grant, user, tenant and client (a prepared statement) travel as one pipeline,
 * which is the whole transaction.
 */
export const createAccessTokenVerifier = (deps: { db: Db; clock: Clock; clients: Clients }) => {
  const verify = async (token: string): Promise<ValidAccessTokenWithUser | null> => {
    if (!looksLikeOpaqueToken(token)) return null;
    const tokenHash = sha256Hex(token);
    const [row] = await deps.db.rawTx.withCredentialTenant({ kind: "oidcToken", hash: tokenHash }, (tx) =>
      tx.query<AccessRow>(ACCESS_TOKEN_STATEMENT, [tokenHash], { prepared: true, commit: true }),
    );
    const read: AccessTokenRead | null = toAccessTokenRead(row);
    if (!read || read.kind !== "access" || read.revokedAt || read.grantRevokedAt) return null;
    if (read.expiresAt.getTime() <= deps.clock.now().getTime()) return null;
    if (!read.userActive || !read.tenantActive) return null;
    // A deactivated (or deleted) client's tokens stop working at once.
    if (!read.clientActive) return null;
    return {
      tenantId: read.tenantId,
      userId: read.userId,
      clientId: read.clientId,
      sessionId: read.sessionId,
      scope: read.scope.split(" "),
      user: {
        firstName: read.firstName,
        lastName: read.lastName,
        email: read.email,
        avatarUrl: read.avatarUrl,
        updatedAt: read.updatedAt,
      },
    };
  };
  return verify;
};

export type AccessTokenVerifier = ReturnType<typeof createAccessTokenVerifier>;
