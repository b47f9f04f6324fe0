import { afterCommit, type Outbox, type Prisma, sqlParams, type Tx } from "@hisob/db";

/**
 * Why a session ended, carried by SessionDeleted so its owner's app can say so
 * (docs/decisions/0086-setup-idempotent-creates-sign-out-reasons.md): the owner signed out (here or on
 * another device), an administrator ended it (or deactivated, deleted or changed the credentials of its
 * user), the owner changed their own password, or the organization was deactivated.
 */
export const SESSION_END_REASONS = [
  "signed_out",
  "ended_by_admin",
  "credentials_changed",
  "organization_deactivated",
] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];
const ORGANIZATION_DEACTIVATED: SessionEndReason = "organization_deactivated";

/** One's own session ended by oneself is a sign-out; anyone else's is an administrator's act. */
export const endedBy = (actorUserId: string, ownerUserId: string): SessionEndReason =>
  actorUserId === ownerUserId ? "signed_out" : "ended_by_admin";

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
  reason: SessionEndReason,
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
        reason,
      },
    });
  }
  return sessions.length;
};

/** A timestamptz as JavaScript's toISOString writes it (what SessionDeleted carries). */
const isoOf = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Ends every session of the tenant (its deactivation: the reason each announcement carries) in one statement, each announced with
 * SessionDeleted in the same transaction (the outbox's set-based `stage`: no round trip per session,
 * however many there are). OIDC grants bound to them end with them. Answers how many ended.
 */
export const endAllSessions = async (tx: Tx, outbox: Outbox, tenantId: string): Promise<number> => {
  const params = sqlParams();
  const tenant = params.add(tenantId);
  const announced = outbox.stage(
    { afterCommit: (callback) => afterCommit(tx, callback) },
    params,
    // Why these sessions ended (a session's end reason, not an error's).
    { type: "SessionDeleted", tenantId, payload: { reason: ORGANIZATION_DEACTIVATED } },
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
