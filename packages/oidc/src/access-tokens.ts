import type { Db } from "@hisob/db";
import type { Clock } from "@hisob/kernel";
import type { Clients } from "./clients/clients";
import { looksLikeOpaqueToken, sha256Hex } from "./opaque-token";

export type ValidAccessToken = {
  tenantId: string;
  userId: string;
  clientId: string;
  sessionId: string;
  scope: string[];
};

/**
 * An access token → who it speaks for, or null: unknown, expired, revoked, its grant revoked, or
 * its login session ended (the grant is then gone), or its user, tenant or client deactivated. Tokens are
 * opaque and looked up by hash on every use, so revocation takes effect immediately.
 */
export const createAccessTokenVerifier =
  (deps: { db: Db; clock: Clock; clients: Clients }) =>
  async (token: string): Promise<ValidAccessToken | null> => {
    if (!looksLikeOpaqueToken(token)) return null;
    const tokenHash = sha256Hex(token);
    const tenantId = await deps.db.system.findOidcTokenTenant(tokenHash);
    if (!tenantId) return null;
    const valid = await deps.db.withTenant(tenantId, async (tx) => {
      const row = await tx.oidcToken.findUnique({
        where: { tokenHash },
        include: {
          grant: {
            include: { user: { select: { isActive: true, tenant: { select: { isActive: true } } } } },
          },
        },
      });
      if (!row || row.kind !== "access" || row.revokedAt || row.grant.revokedAt) return null;
      if (row.expiresAt.getTime() <= deps.clock.now().getTime()) return null;
      if (!row.grant.user.isActive || !row.grant.user.tenant.isActive) return null;
      return {
        tenantId,
        userId: row.grant.userId,
        clientId: row.grant.clientId,
        sessionId: row.grant.sessionId,
        scope: row.scope.split(" "),
      };
    });
    // A deactivated (or deleted) client's tokens stop working at once.
    if (!valid || !(await deps.clients.findActive(valid.clientId))) return null;
    return valid;
  };

export type AccessTokenVerifier = ReturnType<typeof createAccessTokenVerifier>;
