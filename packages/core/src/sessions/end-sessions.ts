import { afterCommit, type Outbox, type Prisma, sqlParams, type Tx } from "@hisob/db";

/** A session's public fields (never its token hash). */
export const SESSION_SELECT = {
  id: true,
  tenantId: true,
  userId: true,
  ip: true,
  userAgent: true,
  createdAt: true,
  expiresAt: true,
  lastAccessAt: true,
  lastClient: true,
} as const;

/**
 * Ends the tenant's sessions that match `where` (a user's, all but one, one by id), announcing
 * each with SessionDeleted in the same transaction. OIDC grants bound to a session end with it
 * (foreign key cascade). Answers how many ended.
 */
export const endSessionsWhere = async (
  tx: Tx,
  outbox: Outbox,
  tenantId: string,
  where: Omit<Prisma.SessionWhereInput, "tenantId">,
): Promise<number> => {
  const sessions = await tx.session.findMany({
    where: { ...where, tenantId },
    select: SESSION_SELECT,
  });
  if (sessions.length === 0) return 0;
  await tx.session.deleteMany({ where: { tenantId, id: { in: sessions.map((session) => session.id) } } });
  for (const session of sessions) {
    await outbox.raise(tx, {
      type: "SessionDeleted",
      tenantId: session.tenantId,
      // The public id, never the token: the GraphQL `sessionDeleted` payload of the session's owner.
      payload: {
        sessionId: session.id,
        userId: session.userId,
        ip: session.ip,
        userAgent: session.userAgent,
        createdAt: session.createdAt.toISOString(),
        expiresAt: session.expiresAt.toISOString(),
      },
    });
  }
  return sessions.length;
};

/** A timestamptz as JavaScript's toISOString writes it (what SessionDeleted carries). */
const isoOf = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Ends every session of the tenant (its deactivation) in one statement, each announced with
 * SessionDeleted in the same transaction (the outbox's set-based `stage`: no round trip per session,
 * however many there are). OIDC grants bound to them end with them. Answers how many ended.
 */
export const endAllSessions = async (tx: Tx, outbox: Outbox, tenantId: string): Promise<number> => {
  const params = sqlParams();
  const tenant = params.add(tenantId);
  const announced = outbox.stage(
    { afterCommit: (callback) => afterCommit(tx, callback) },
    params,
    { type: "SessionDeleted", tenantId, payload: {} },
    {
      from: "ended",
      eachRow: true,
      mergePayload: `jsonb_build_object('sessionId', ended.id, 'userId', ended.user_id, 'ip', ended.ip,
        'userAgent', ended.user_agent, 'createdAt', ${isoOf("ended.created_at")},
        'expiresAt', ${isoOf("ended.expires_at")})`,
    },
  );
  return tx.$executeRawUnsafe(
    `WITH ended AS (
       DELETE FROM sessions WHERE tenant_id = ${tenant}::uuid
       RETURNING id, user_id, ip, user_agent, created_at, expires_at)
     ${announced.sql}`,
    ...params.values,
  );
};
