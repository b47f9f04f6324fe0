import type { Db } from "@hisob/db";
import { type Clock, systemClock } from "@hisob/kernel";
import { webOriginProblem } from "../admin/oidc-admin.schema";

/** How long the loaded origins are used: another instance's change to a client's origins shows within it. */
export const WEB_ORIGINS_CACHE_SECONDS = 30;

/**
 * Whether a browser origin is one an active client lists in its web origins (decision 0085): the
 * OpenID provider's CORS answers such an origin on its browser-callable endpoints, beside the
 * operator's OIDC_ALLOWED_ORIGINS. A page may send any `Origin`, so nothing it sends costs a query:
 * an origin no client could list (`webOriginProblem`) is refused outright, and the rest are answered
 * from one set of every active client's origins, loaded in one query and reloaded at most every
 * WEB_ORIGINS_CACHE_SECONDS; `forget()` drops it at once (this instance changed a client).
 */
export const createWebOrigins = (deps: { db: Db; clock?: Clock }) => {
  const clock = deps.clock ?? systemClock;
  let loaded: { origins: Promise<ReadonlySet<string>>; until: number } | undefined;

  const load = async (): Promise<ReadonlySet<string>> => {
    const rows = await deps.db.rawTx.withPlatform((tx) =>
      tx.query<{ origin: string }>(
        "SELECT DISTINCT unnest(web_origins) AS origin FROM oidc_clients WHERE is_active",
      ),
    );
    return new Set(rows.map((row) => row.origin));
  };

  const origins = (): Promise<ReadonlySet<string>> => {
    const now = clock.now().getTime();
    if (loaded && loaded.until > now) return loaded.origins;
    // Requests arriving while it loads share the one query; a failed load is not kept.
    const current = { origins: load(), until: now + WEB_ORIGINS_CACHE_SECONDS * 1000 };
    loaded = current;
    current.origins.catch(() => {
      if (loaded === current) loaded = undefined;
    });
    return current.origins;
  };

  return {
    allows: async (origin: string): Promise<boolean> => {
      if (origin.length === 0 || origin.length > 300 || webOriginProblem(origin) !== undefined) return false;
      return (await origins()).has(origin);
    },
    forget: () => {
      loaded = undefined;
    },
  };
};

export type WebOrigins = ReturnType<typeof createWebOrigins>;
