import type { Outbox, Tx } from "@hisob/db";

/** The event announcing that callers' effective access may have changed. */
export const ACCESS_CHANGED = "AccessChanged";

/**
 * Announces, in the transaction that changes them, that the roles, groups or permissions behind
 * `userIds` (every user of the tenant when omitted, e.g. a role's permissions) may have changed. Every
 * HTTP request resolves its caller afresh anyway; this reaches what lives longer than a request: after
 * commit, open GraphQL sockets of those users resolve their caller again on every instance and end the
 * subscriptions it may no longer run (docs/decisions/0011-graphql-socket-authorization.md).
 */
export const raiseAccessChanged = (
  tx: Tx,
  outbox: Outbox,
  tenantId: string,
  userIds?: readonly string[],
): Promise<string> =>
  outbox.raise(tx, {
    type: ACCESS_CHANGED,
    tenantId,
    payload: userIds === undefined ? {} : { userIds: [...userIds] },
  });
