import type { Outbox, Prisma, Tx } from "@hisob/db";

/** A session's public fields (never its token hash). */
export const SESSION_SELECT = {
  id: true,
  tenantId: true,
  userId: true,
  ip: true,
  userAgent: true,
  createdAt: true,
  expiresAt: true,
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
