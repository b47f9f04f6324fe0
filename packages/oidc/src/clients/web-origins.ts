import type { Db } from "@hisob/db";
import { type Clock, systemClock } from "@hisob/kernel";

/** How long an answer is remembered: another instance's change to a client's origins shows within it. */
export const WEB_ORIGINS_CACHE_SECONDS = 30;
/** At most this many origins remembered at once (a page may send any `Origin`). */
const MAX_REMEMBERED = 1000;

/**
 * Whether a browser origin is one an active client lists in its web origins (decision 0085): the
 * OpenID provider's CORS answers such an origin on its browser-callable endpoints, beside the
 * operator's OIDC_ALLOWED_ORIGINS. One indexed-array lookup per origin, remembered for
 * WEB_ORIGINS_CACHE_SECONDS; `forget()` drops every answer at once (this instance changed a client).
 */
export const createWebOrigins = (deps: { db: Db; clock?: Clock }) => {
  const clock = deps.clock ?? systemClock;
  const remembered = new Map<string, { allowed: boolean; until: number }>();

  const lookUp = async (origin: string): Promise<boolean> => {
    const rows = await deps.db.rawTx.withPlatform((tx) =>
      tx.query<{ one: number }>(
        "SELECT 1 AS one FROM oidc_clients WHERE is_active AND $1 = ANY(web_origins) LIMIT 1",
        [origin],
      ),
    );
    return rows.length > 0;
  };

  return {
    allows: async (origin: string): Promise<boolean> => {
      if (origin.length === 0 || origin.length > 300) return false;
      const now = clock.now().getTime();
      const known = remembered.get(origin);
      if (known && known.until > now) return known.allowed;
      const allowed = await lookUp(origin);
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.set(origin, { allowed, until: now + WEB_ORIGINS_CACHE_SECONDS * 1000 });
      return allowed;
    },
    forget: () => remembered.clear(),
  };
};

export type WebOrigins = ReturnType<typeof createWebOrigins>;
