import { audit, type Db, type Outbox, type Tx } from "@hisob/db";
import { AppError, type Clock, parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { type TConsentDto, ZConsentClientId } from "./consents.schema";

/*
 * The applications a user allowed (docs/decisions/0036-oidc-consent.md): listed and revoked by the user
 * (/account/consents) or by whoever manages users (/users/:id/consents). Revoking also revokes what the
 * client holds for that user — its grants and every access and refresh token — so the next sign-in asks again.
 */

/** Announced as the provider does (packages/oidc events.ts): open GraphQL sockets on those tokens re-check. */
const OIDC_TOKENS_REVOKED = "OidcTokensRevoked";

const consentNotFound = () =>
  new AppError("NOT_FOUND", {
    reason: "consent.not_found",
    message: "This application has no access to revoke",
  });
const userNotFound = () => new AppError("NOT_FOUND", { reason: "user.not_found", message: "User not found" });

export const createConsentsService = (deps: { db: Db; outbox: Outbox; clock: Clock }) => {
  const { db } = deps;

  const ensureUser = async (tx: Tx, tenantId: string, userId: string) => {
    if ((await tx.user.count({ where: { tenantId, id: userId } })) === 0) throw userNotFound();
  };

  const list = async (ctx: TenantContext, userId: string): Promise<TConsentDto[]> => {
    const rows = await db.withTenant(ctx.tenantId, async (tx) => {
      await ensureUser(tx, ctx.tenantId, userId);
      return tx.oidcConsent.findMany({
        where: { tenantId: ctx.tenantId, userId },
        orderBy: [{ updatedAt: "desc" }, { clientId: "asc" }],
        take: 200,
      });
    });
    if (rows.length === 0) return [];
    // Clients are the platform's: their names are read apart from the tenant's rows.
    const clients = await db.withPlatform((tx) =>
      tx.oidcClient.findMany({
        where: { clientId: { in: rows.map((row) => row.clientId) } },
        select: { clientId: true, name: true },
      }),
    );
    const names = new Map(clients.map((client) => [client.clientId, client.name]));
    return rows.map((row) => ({
      clientId: row.clientId,
      clientName: names.get(row.clientId) ?? row.clientId,
      scopes: row.scopes,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }));
  };

  const revoke = async (
    ctx: TenantContext,
    userId: string,
    rawClientId: unknown,
  ): Promise<{ revoked: true }> => {
    const clientId = parseInput(ZConsentClientId, rawClientId);
    return db.withTenant(ctx.tenantId, async (tx) => {
      await ensureUser(tx, ctx.tenantId, userId);
      const key = { tenantId: ctx.tenantId, userId, clientId };
      const consent = await tx.oidcConsent.findUnique({ where: { tenantId_userId_clientId: key } });
      if (!consent) throw consentNotFound();
      await tx.oidcConsent.delete({ where: { tenantId_userId_clientId: key } });
      const now = deps.clock.now();
      const grants = await tx.oidcGrant.findMany({
        where: { tenantId: ctx.tenantId, userId, clientId, revokedAt: null },
        select: { id: true },
      });
      const grantIds = grants.map((grant) => grant.id);
      if (grantIds.length > 0) {
        await tx.oidcGrant.updateMany({
          where: { tenantId: ctx.tenantId, id: { in: grantIds } },
          data: { revokedAt: now },
        });
        await tx.oidcToken.updateMany({
          where: { tenantId: ctx.tenantId, grantId: { in: grantIds }, revokedAt: null },
          data: { revokedAt: now },
        });
        for (const grantId of grantIds)
          await deps.outbox.raise(tx, {
            type: OIDC_TOKENS_REVOKED,
            tenantId: ctx.tenantId,
            payload: { userId, grantId },
          });
      }
      await audit(tx, ctx, "oidc_consent", clientId, "revoke", {
        before: { clientId, userId, scopes: consent.scopes },
        after: { revokedGrants: grantIds.length },
      });
      return { revoked: true as const };
    });
  };

  return {
    /** The applications the caller allowed. */
    listOwn: (ctx: TenantContext) => list(ctx, ctx.actor.userId),
    revokeOwn: (ctx: TenantContext, clientId: unknown) => revoke(ctx, ctx.actor.userId, clientId),
    /** Another user's: `users:read:all` to list, `users:update:all` to revoke (one's own needs neither). */
    listForUser: (ctx: TenantContext, userId: string) => {
      if (userId !== ctx.actor.userId) requirePermission(ctx, "users:read:all");
      return list(ctx, userId);
    },
    revokeForUser: (ctx: TenantContext, userId: string, clientId: unknown) => {
      if (userId !== ctx.actor.userId) requirePermission(ctx, "users:update:all");
      return revoke(ctx, userId, clientId);
    },
  };
};

export type ConsentsService = ReturnType<typeof createConsentsService>;
