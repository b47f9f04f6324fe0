import type { Tx } from "@hisob/db";

/*
 * What a user allowed a third-party client (docs/decisions/0036-oidc-consent.md): one row per user and
 * client, the union of every scope set they allowed. First-party clients never ask.
 */

export type ConsentKey = { tenantId: string; userId: string; clientId: string };

export const grantedScopes = async (tx: Tx, key: ConsentKey): Promise<string[]> => {
  const row = await tx.oidcConsent.findUnique({
    where: { tenantId_userId_clientId: key },
    select: { scopes: true },
  });
  return row?.scopes ?? [];
};

/** Adds `scopes` to what the user allowed the client; answers the scopes allowed now. */
export const recordConsent = async (tx: Tx, key: ConsentKey, scopes: string[]): Promise<string[]> => {
  const before = await grantedScopes(tx, key);
  const after = [...new Set([...before, ...scopes])].sort();
  await tx.oidcConsent.upsert({
    where: { tenantId_userId_clientId: key },
    create: { ...key, scopes: after },
    update: { scopes: after },
  });
  return after;
};

/** The scopes of `requested` the user has not allowed yet; all of them when `always` (prompt=consent). */
export const scopesToAsk = (requested: string[], granted: string[], always: boolean): string[] =>
  always ? requested : requested.filter((scope) => !granted.includes(scope));
