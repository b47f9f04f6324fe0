import { audit, type Db, type Outbox, type Tx } from "@hisob/db";
import {
  AppError,
  type Clock,
  type Page,
  parseInput,
  requirePermission,
  type TenantContext,
} from "@hisob/kernel";
import { z } from "zod";
import { endedBy, endSessionsWhere, SESSION_SELECT } from "./end-sessions";
import { hashToken, looksLikeToken } from "./session-token";
import { type TListSessionsQuery, ZListSessionsQuery, ZSessionRef } from "./sessions.schema";

/** A session as anyone may see it: addressed by its public id, never by its secret token. */
export type TSessionDto = {
  id: string;
  userId: string;
  userEmail: string;
  ip: string;
  userAgent: string;
  createdAt: Date;
  expiresAt: Date;
  lastAccessAt: Date;
  client: { kind: "browser" | "api" | "oidc"; clientId: string | null; name: string | null };
};

type SessionRow = Omit<TSessionDto, "client" | "userEmail"> & { lastClient: string };

export { ZSessionRef };

const notFound = () =>
  new AppError("NOT_FOUND", { reason: "session.not_found", message: "Session not found" });

const userNotFound = () => new AppError("NOT_FOUND", { reason: "user.not_found", message: "User not found" });

const clientOf = (lastClient: string, names: ReadonlyMap<string, string>): TSessionDto["client"] =>
  lastClient === "browser" || lastClient === "api"
    ? { kind: lastClient, clientId: null, name: null }
    : { kind: "oidc", clientId: lastClient, name: names.get(lastClient) ?? null };

const toDto = (
  row: SessionRow,
  names: ReadonlyMap<string, string>,
  emails: ReadonlyMap<string, string>,
): TSessionDto => ({
  id: row.id,
  userId: row.userId,
  userEmail: emails.get(row.userId) ?? "",
  ip: row.ip,
  userAgent: row.userAgent,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
  lastAccessAt: row.lastAccessAt,
  client: clientOf(row.lastClient, names),
});

/**
 * Sessions as the API shows them, with their users' emails and the names of the OIDC clients that used
 * them last (one query each).
 */
const toDtos = async (tx: Tx, rows: SessionRow[]): Promise<TSessionDto[]> => {
  const userIds = [...new Set(rows.map((row) => row.userId))];
  const users =
    userIds.length === 0
      ? []
      : await tx.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } });
  const emails = new Map(users.map((user) => [user.id, user.email]));
  const clientIds = [...new Set(rows.map((row) => row.lastClient))].filter(
    (id) => id !== "browser" && id !== "api",
  );
  const clients =
    clientIds.length === 0
      ? []
      : await tx.oidcClient.findMany({
          where: { clientId: { in: clientIds } },
          select: { clientId: true, name: true },
        });
  const names = new Map(clients.map((client) => [client.clientId, client.name]));
  return rows.map((row) => toDto(row, names, emails));
};

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
      return toDtos(tx, rows);
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
      return toDtos(tx, rows);
    });
  },

  /**
   * The organization's live sessions, most recently used first; `userId` narrows to one user's, `client`
   * to those last used by the browser, the API or one OIDC client.
   */
  listForTenant: async (ctx: TenantContext, raw: TListSessionsQuery): Promise<Page<TSessionDto>> => {
    requirePermission(ctx, "sessions:read:all");
    const query = parseInput(ZListSessionsQuery, raw);
    return deps.db.withTenant(ctx.tenantId, async (tx) => {
      const where = {
        tenantId: ctx.tenantId,
        expiresAt: { gt: deps.clock.now() },
        ...(query.userId ? { userId: query.userId } : {}),
        ...(query.client ? { lastClient: query.client } : {}),
      };
      const [rows, total] = await Promise.all([
        tx.session.findMany({
          where,
          select: SESSION_SELECT,
          orderBy: [{ lastAccessAt: "desc" }, { id: "desc" }],
          skip: query.offset,
          take: query.limit,
        }),
        tx.session.count({ where }),
      ]);
      return { items: await toDtos(tx, rows), total, limit: query.limit, offset: query.offset };
    });
  },

  /** Ends every session of a user (another user's needs `sessions:delete:all`); answers how many ended. */
  endAllForUser: async (ctx: TenantContext, userId: string): Promise<{ ended: number }> => {
    if (userId !== ctx.actor.userId) requirePermission(ctx, "sessions:delete:all");
    return deps.db.withTenant(ctx.tenantId, async (tx) => {
      if ((await tx.user.count({ where: { tenantId: ctx.tenantId, id: userId } })) === 0)
        throw userNotFound();
      const reason = endedBy(ctx.actor.userId, userId);
      const ended = await endSessionsWhere(tx, deps.outbox, ctx.tenantId, { userId }, reason);
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
      await endSessionsWhere(
        tx,
        deps.outbox,
        ctx.tenantId,
        { id: session.id },
        endedBy(ctx.actor.userId, session.userId),
      );
      const [ended] = await toDtos(tx, [session]);
      const { client: _client, lastAccessAt: _last, userEmail: _email, ...recorded } = ended as TSessionDto;
      await audit(tx, ctx, "session", session.id, "end", { before: recorded });
      return ended as TSessionDto;
    });
  },
});

export type SessionsService = ReturnType<typeof createSessionsService>;
