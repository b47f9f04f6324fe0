import { CallerChangedError, type CallerCheck, type Db, type ResolvedCaller } from "@hisob/db";
import { type Clock, isPlatformOnlyPermission, type TenantContext, ZLocale } from "@hisob/kernel";
import { hashToken, looksLikeToken } from "../sessions/session-token";
import { actInTenant } from "./act-in-tenant";

export type Credentials = {
  sessionToken?: string | undefined;
  bearerToken?: string | undefined;
  requestId: string;
  /** The request's address and user agent, kept on the context for the audit log. */
  client?: { ip: string; userAgent: string };
};

/** A context from the cache: `check` must be confirmed by the request (see CallerCheck in @hisob/db). */
export type CachedContext = {
  ctx: TenantContext;
  /** Null when the caller was just resolved (nothing to confirm). */
  check: CallerCheck | null;
  /** Confirms the cached caller with a statement of its own (a request that opened no transaction in its tenant). */
  recheck(): Promise<boolean>;
};

/** A caller as the database says now, and the resolution it came from. */
export type LiveContext = { ctx: TenantContext; caller: ResolvedCaller };

/** How long a resolved caller may be served from memory; every use is still confirmed (CallerCheck). */
const CACHE_TTL_MS = 60_000;
const CACHE_MAX_ENTRIES = 10_000;
/** A session's last access is written at most this often (decision 0055): reads stay cheap. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

type Kinds = ReadonlyArray<"session" | "oidc">;

const ZLocaleOrEnglish = ZLocale.catch("en");

/** What a context derives from its caller, computed once per resolution and shared by the requests it serves. */
type Derived = Pick<TenantContext, "locale" | "isPlatformAdmin"> & { permissions: ReadonlySet<string> };
const derive = (caller: ResolvedCaller): Derived => ({
  // Defence in depth: platform-only permissions count only inside the platform tenant.
  permissions: new Set(
    caller.isPlatform
      ? caller.permissions
      : caller.permissions.filter((name) => !isPlatformOnlyPermission(name)),
  ),
  locale: ZLocaleOrEnglish.parse(caller.uiLanguage),
  isPlatformAdmin: caller.isPlatform,
});

/** Whether two resolutions of a credential stand for the same caller with the same access. */
export const sameCaller = (a: ResolvedCaller, b: ResolvedCaller): boolean =>
  a.kind === b.kind &&
  a.tenantId === b.tenantId &&
  a.userId === b.userId &&
  a.sessionId === b.sessionId &&
  a.usable === b.usable &&
  a.isPlatform === b.isPlatform &&
  a.uiLanguage === b.uiLanguage &&
  a.authTime.getTime() === b.authTime.getTime() &&
  a.expiresAt.getTime() === b.expiresAt.getTime() &&
  a.permissions.length === b.permissions.length &&
  a.permissions.every((name, i) => name === b.permissions[i]);

/**
 * `resolveContext`: the one function every transport (REST, GraphQL, tRPC, WebSocket) calls to turn
 * a session cookie or a bearer token into a TenantContext. A cookie is a session token; a bearer
 * token is a session token (e.g. from the GraphQL `authenticate` mutation) or a first-party OIDC
 * access token (the accountant app). Either way the caller — tenant, user, activity of user, tenant
 * and client, language and effective permissions — is one statement, one round trip, no transaction
 * (`db.system.resolveCaller`). Returns null when the credential is missing or dead — unknown,
 * expired, revoked, or its user, tenant or client deactivated.
 *
 * `resolveCachedContext` (REST reads) may answer from an in-process cache of resolved callers; the
 * request then confirms the cached caller inside its first tenant transaction, in the statement
 * that sets the tenant and role anyway, and runs again from scratch when it changed. So ending a
 * session, deactivating a user or tenant, revoking a token or changing a role's permissions counts
 * from the very next request on every instance, with no invalidation messages to lose.
 */
export const createContextService = (deps: { db: Db; clock: Clock }) => {
  const cache = new Map<string, { caller: ResolvedCaller; derived: Derived; until: number }>();
  /** When this instance last wrote each session's last access: most requests then need no statement. */
  const touched = new Map<string, number>();

  /**
   * Records a use of the caller's session, once a minute at most (here and in the statement, which
   * also holds across instances). Never fails the request: the time is a hint, not a control.
   */
  const touch = async (caller: ResolvedCaller, tokenHash: string, credentials: Credentials) => {
    const now = deps.clock.now();
    const last = touched.get(caller.sessionId);
    if (last !== undefined && now.getTime() - last < SESSION_TOUCH_INTERVAL_MS) return;
    touched.delete(caller.sessionId);
    if (touched.size >= CACHE_MAX_ENTRIES) {
      const oldest = touched.keys().next().value;
      if (oldest !== undefined) touched.delete(oldest);
    }
    const via = caller.kind === "oidc" ? "oidc" : credentials.bearerToken ? "api" : "browser";
    // Remember the time the database holds (ours, or another instance's newer one): the next write is due a minute after it.
    const stored = await deps.db.system
      .touchSession({ sessionId: caller.sessionId, via, tokenHash }, now)
      .catch(() => null);
    if (stored) touched.set(caller.sessionId, stored.getTime());
  };

  const live = (caller: ResolvedCaller | null): caller is ResolvedCaller =>
    caller?.usable === true && caller.expiresAt.getTime() > deps.clock.now().getTime();

  const toContext = (caller: ResolvedCaller, derived: Derived, credentials: Credentials): TenantContext => ({
    tenantId: caller.tenantId,
    actor: { userId: caller.userId, permissions: derived.permissions, sessionId: caller.sessionId },
    locale: derived.locale,
    requestId: credentials.requestId,
    isPlatformAdmin: derived.isPlatformAdmin,
    ...(credentials.client ? { client: credentials.client } : {}),
  });

  const credential = (credentials: Credentials): { tokenHash: string; kinds: Kinds; key: string } | null => {
    const token = credentials.bearerToken ?? credentials.sessionToken;
    // Session tokens and OIDC access tokens are both base64url: garbage never reaches the database.
    if (!token || !looksLikeToken(token)) return null;
    const tokenHash = hashToken(token);
    const kinds: Kinds = credentials.bearerToken ? ["session", "oidc"] : ["session"];
    return { tokenHash, kinds, key: `${kinds.join(",")}:${tokenHash}` };
  };

  const remember = (key: string, caller: ResolvedCaller): Derived => {
    cache.delete(key);
    if (cache.size >= CACHE_MAX_ENTRIES) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    const derived = derive(caller);
    cache.set(key, { caller, derived, until: deps.clock.now().getTime() + CACHE_TTL_MS });
    return derived;
  };

  const resolveLive = async (credentials: Credentials): Promise<LiveContext | null> => {
    const found = credential(credentials);
    if (!found) return null;
    const caller = await deps.db.system.resolveCaller(found.tokenHash, found.kinds);
    if (!live(caller)) {
      cache.delete(found.key);
      return null;
    }
    await touch(caller, found.tokenHash, credentials);
    return { ctx: toContext(caller, remember(found.key, caller), credentials), caller };
  };
  /** `resolveLive` for many credentials in one statement; each answer in order, null where it is dead. */
  const resolveLiveMany = async (many: readonly Credentials[]): Promise<Array<LiveContext | null>> => {
    const found = many.map(credential);
    const asked = found.flatMap((entry) => (entry ? [entry] : []));
    const callers = await deps.db.system.resolveCallers(asked);
    let next = 0;
    return many.map((credentials, index) => {
      const entry = found[index];
      if (!entry) return null;
      const caller = callers[next++] ?? null;
      if (!live(caller)) {
        cache.delete(entry.key);
        return null;
      }
      return { ctx: toContext(caller, remember(entry.key, caller), credentials), caller };
    });
  };
  const resolveFresh = async (credentials: Credentials): Promise<TenantContext | null> =>
    (await resolveLive(credentials))?.ctx ?? null;

  return {
    resolveContext: resolveFresh,

    /**
     * As `resolveContext`, with the resolution it came from: what a connection that outlives a request
     * needs (a GraphQL socket: its credential's kind and expiry, and `sameCaller` to see what changed).
     */
    resolveLive,
    resolveLiveMany,

    /** The caller acting in the organization a request names (decision 0084): see act-in-tenant.ts. */
    actInTenant: (ctx: TenantContext, tenantId: string, intent: "read" | "change") =>
      actInTenant(deps.db, ctx, tenantId, intent),

    /** Is the organization active (why a dead credential died, for a socket's close)? */
    tenantActive: (tenantId: string): Promise<boolean> => deps.db.system.isTenantActive(tenantId),

    /**
     * Why a bearer that resolved to no caller is refused: a valid OIDC access token issued to a
     * third-party application is not for this API (a distinct answer, so its developer knows the
     * token is fine but belongs elsewhere); anything else is simply invalid.
     */
    bearerRefusal: async (bearerToken: string): Promise<"not_for_this_api" | "invalid"> => {
      if (!looksLikeToken(bearerToken)) return "invalid";
      const other = await deps.db.system.isOtherClientsAccessToken(hashToken(bearerToken));
      return other ? "not_for_this_api" : "invalid";
    },

    resolveCachedContext: async (credentials: Credentials): Promise<CachedContext | null> => {
      const found = credential(credentials);
      if (!found) return null;
      const entry = cache.get(found.key);
      if (!entry || entry.until <= deps.clock.now().getTime() || !live(entry.caller)) {
        const ctx = await resolveFresh(credentials);
        return ctx ? { ctx, check: null, recheck: async () => true } : null;
      }
      const cached = entry.caller;
      await touch(cached, found.tokenHash, credentials);
      const confirm = (fresh: ResolvedCaller | null): boolean => {
        if (live(fresh) && sameCaller(fresh, cached)) return true;
        cache.delete(found.key);
        return false;
      };
      const check: CallerCheck = {
        tenantId: cached.tenantId,
        tokenHash: found.tokenHash,
        kinds: found.kinds,
        verified: false,
        accept: (fresh) => {
          if (!confirm(fresh)) throw new CallerChangedError();
        },
      };
      return {
        ctx: toContext(cached, entry.derived, credentials),
        check,
        recheck: async () => {
          if (check.verified) return true;
          check.verified = confirm(await deps.db.system.resolveCaller(found.tokenHash, found.kinds));
          return check.verified;
        },
      };
    },
  };
};

export type ContextService = ReturnType<typeof createContextService>;
