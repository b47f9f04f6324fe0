import { audit, type Db, type Outbox } from "@hisob/db";
import { AppError, type Clock, parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { z } from "zod";
import { endSessionsWhere, SESSION_SELECT } from "./end-sessions";
import { hashToken, looksLikeToken } from "./session-token";
import { ZSessionRef } from "./sessions.schema";

/** A session as anyone may see it: addressed by its public id, never by its secret token. */
export type TSessionDto = {
  id: string;
  userId: string;
  ip: string;
  userAgent: string;
  createdAt: Date;
  expiresAt: Date;
};

export { ZSessionRef };

const notFound = () =>
  new AppError("NOT_FOUND", { reason: "session.not_found", message: "Session not found" });

const userNotFound = () => new AppError("NOT_FOUND", { reason: "user.not_found", message: "User not found" });

const toDto = (row: TSessionDto): TSessionDto => ({
  id: row.id,
  userId: row.userId,
  ip: row.ip,
  userAgent: row.userAgent,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
});

/**
 * Listing and ending sessions. Everyone may list and end their own; ending another user's session (of
 * the same tenant) needs `sessions:delete:all`. Ending a session deletes the OIDC grants and tokens
 * bound to it (foreign keys) and announces `SessionDeleted` after the commit.
 */
export const createSessionsService = (deps: { db: Db; outbox: Outbox; clock: Clock }) => ({
  /** One's own live sessions, newest first. */
  listOwn: async (ctx: TenantContext): Promise<TSessionDto[]> =>
    deps.db.withTenant(ctx.tenantId, async (tx) => {
      const rows = await tx.session.findMany({
        where: { tenantId: ctx.tenantId, userId: ctx.actor.userId, expiresAt: { gt: deps.clock.now() } },
        select: SESSION_SELECT,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: 100,
      });
      return rows.map(toDto);
    }),

  /** A user's live sessions, newest first: one's own, or anyone's in the tenant with `sessions:read:all`. */
  listForUser: async (ctx: TenantContext, userId: string): Promise<TSessionDto[]> => {
    if (userId !== ctx.actor.userId) requirePermission(ctx, "sessions:read:all");
    return deps.db.withTenant(ctx.tenantId, async (tx) => {
      if ((await tx.user.count({ where: { tenantId: ctx.tenantId, id: userId } })) === 0)
        throw userNotFound();
      const rows = await tx.session.findMany({
        where: { tenantId: ctx.tenantId, userId, expiresAt: { gt: deps.clock.now() } },
        select: SESSION_SELECT,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: 100,
      });
      return rows.map(toDto);
    });
  },

  /** Ends every session of a user (another user's needs `sessions:delete:all`); answers how many ended. */
  endAllForUser: async (ctx: TenantContext, userId: string): Promise<{ ended: number }> => {
    if (userId !== ctx.actor.userId) requirePermission(ctx, "sessions:delete:all");
    return deps.db.withTenant(ctx.tenantId, async (tx) => {
      if ((await tx.user.count({ where: { tenantId: ctx.tenantId, id: userId } })) === 0)
        throw userNotFound();
      const ended = await endSessionsWhere(tx, deps.outbox, ctx.tenantId, { userId });
      await audit(tx, ctx, "session", null, "end_all", { after: { userId, ended } });
      return { ended };
    });
  },

  /** Ends the session named by its public id or its secret token; returns what it was. */
  end: async (ctx: TenantContext, rawRef: unknown): Promise<TSessionDto> => {
    const ref = parseInput(ZSessionRef, rawRef);
    const byId = z.uuid().safeParse(ref).success;
    if (!byId && !looksLikeToken(ref)) throw notFound();
    return deps.db.withTenant(ctx.tenantId, async (tx) => {
      const session = await tx.session.findFirst({
        where: byId
          ? { tenantId: ctx.tenantId, id: ref.toLowerCase() }
          : { tenantId: ctx.tenantId, tokenHash: hashToken(ref) },
        select: SESSION_SELECT,
      });
      if (!session) throw notFound();
      if (session.userId !== ctx.actor.userId) requirePermission(ctx, "sessions:delete:all");
      await endSessionsWhere(tx, deps.outbox, ctx.tenantId, { id: session.id });
      await audit(tx, ctx, "session", session.id, "end", { before: toDto(session) });
      return toDto(session);
    });
  },
});

export type SessionsService = ReturnType<typeof createSessionsService>;
