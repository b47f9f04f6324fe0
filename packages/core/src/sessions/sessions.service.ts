import type { Db, Outbox } from "@hisob/db";
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
      return toDto(session);
    });
  },
});

export type SessionsService = ReturnType<typeof createSessionsService>;
