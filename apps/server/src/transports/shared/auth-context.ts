import fastifyCookie from "@fastify/cookie";
import { ACT_IN_TENANT_HEADER, type CachedContext, type ContextService, type Credentials } from "@hisob/core";
import { CallerChangedError, isDatabaseUnreachable, withCallerCheck } from "@hisob/db";
import {
  AppError,
  IDEMPOTENCY_KEY_HEADER,
  isAppError,
  parseAuthorization,
  parseIdempotencyKey,
  type TenantContext,
  validationError,
} from "@hisob/kernel";
import type { FastifyContextConfig, FastifyReply, FastifyRequest, RouteHandlerMethod } from "fastify";
import type { App } from "../../app";

declare module "fastify" {
  interface FastifyRequest {
    /** The caller's context when it sent valid credentials (a session cookie or a bearer token). */
    ctx: TenantContext | null;
    authMethod: "cookie" | "bearer" | null;
    /** Set when `ctx` came from the cache of resolved callers and is still to be confirmed. */
    cachedCaller: CachedContext | null;
    /** The database could not be reached to resolve the caller, on an `ownUnavailable` route (tRPC, GraphQL). */
    callerUnavailable: boolean;
    /**
     * Why a bearer token resolved to no caller: a live token of a third-party application is "not for
     * this API" (decision 0038), anything else is invalid. Asked once, on this failure path only.
     */
    bearerRefusal: BearerRefusal | null;
  }
  /**
   * Each route's policy, declared where the route is (or by the plugin that registers it), never
   * by URL: who may call it and whether its caller may come from the cache. CSRF follows from it:
   * every change to a route that is not public, made with the session cookie, must be non-simple.
   */
  interface FastifyContextConfig {
    /**
     * The route works without credentials (health, docs, login; tRPC and GraphQL, which answer an
     * anonymous caller in their own wire format). Every other route requires them.
     */
    public?: boolean;
    /**
     * The route authenticates its callers itself (the OpenID provider: its clients, its own tokens,
     * the login session): no API context is resolved for it.
     */
    ownAuthentication?: boolean;
    /** The operation posts once per Idempotency-Key (read by the API reference: rest/openapi.ts). */
    idempotent?: boolean;
    /**
     * The caller is resolved afresh, never started from the cache: the handler must not run a second
     * time (it streams its reply before the caller is confirmed, or runs calls of its own, as tRPC).
     */
    freshCaller?: boolean;
    /**
     * The route confirms a cached caller itself, per operation (tRPC, GraphQL: `runWithCaller`), so its
     * caller may start from the cache whatever its method: a query runs again with the caller resolved
     * afresh if it changed, a change first has its caller confirmed (docs/decisions/0090-transports-at-baseline.md).
     */
    ownCallerCheck?: boolean;
    /**
     * When the database cannot be reached to resolve the caller, the route answers 503 itself, in its
     * own wire format (`request.callerUnavailable`); elsewhere the REST error envelope answers.
     */
    ownUnavailable?: boolean;
    /**
     * A platform administrator may act in the organization the `x-tenant-id` header names (decision
     * 0084): set on the operation routes and the audit log. Elsewhere the header is refused (400).
     */
    actsInTenant?: boolean;
  }
}

export type BearerRefusal = "not_for_this_api" | "invalid";

/** The 401 every transport gives a refused bearer (decision 0038): the reason and the RFC 6750 header. */
export const bearerRefusalProblem = (refusal: BearerRefusal | null) =>
  refusal === "not_for_this_api"
    ? {
        reason: "auth.token_not_for_this_api",
        message: "The token is valid but was issued to another application, not for this API",
        wwwAuthenticate:
          'Bearer error="invalid_token", error_description="The token was issued to another application"',
      }
    : {
        reason: "auth.invalid_credentials",
        message: "Unauthorized",
        wwwAuthenticate: 'Bearer error="invalid_token"',
      };

export const SESSION_COOKIE = "session";
/** Any value in this header makes a request non-simple: browsers send it cross-origin only after a preflight we never allow. */
export const CSRF_HEADER = "x-csrf-token";

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A plugin's onRoute hook that gives every route it registers the same policy (tRPC, Swagger UI, OIDC). */
export const routePolicy =
  (policy: FastifyContextConfig) =>
  (route: { config?: FastifyContextConfig }): void => {
    route.config = { ...route.config, ...policy };
  };

/**
 * A signal aborted when the response closes before it was complete: the client went away (closed
 * tab, cancelled download, aborted fetch). Long reads hand it to the database, which cancels the
 * running statement (docs/decisions/0088-report-filters-and-comparison.md).
 */
const clientGoneSignal = (reply: FastifyReply): AbortSignal => {
  const gone = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableFinished) gone.abort(new Error("the client closed the request"));
  });
  return gone.signal;
};

/** The authenticated caller's context, or UNAUTHENTICATED. */
export const ctxOf = (request: FastifyRequest): TenantContext => {
  if (!request.ctx) throw new AppError("UNAUTHENTICATED");
  return request.ctx;
};

/** The bearer token of an Authorization header; undefined without one, null for one we cannot use. */
export const bearerOf = (header: string | undefined): string | undefined | null => {
  const authorization = parseAuthorization(header);
  if (authorization.scheme === "none") return undefined;
  return authorization.scheme === "bearer" ? authorization.token : null;
};

/**
 * A cookie-authenticated change must be a non-simple request — a JSON body or the CSRF header —
 * so a cross-site form or image cannot make it. HTML form posts (login, logout) check Origin and
 * a CSRF token themselves and are marked public.
 */
export const isNonSimple = (request: FastifyRequest): boolean => {
  const type = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "application/json" || type.endsWith("+json")) return true;
  const header = request.headers[CSRF_HEADER];
  return typeof header === "string" && header.length > 0;
};

const isPublicRoute = (request: FastifyRequest): boolean =>
  // No route matched (url undefined): let the not-found handler answer 404.
  request.routeOptions.config?.public === true || request.routeOptions.url === undefined;

const isRead = (method: string | string[]): boolean =>
  [method].flat().every((m) => m === "GET" || m === "HEAD");

/**
 * Reads whose handler may be run a second time start from a cached caller: GET/HEAD routes that
 * require credentials, unless the route asks for a fresh caller or authenticates its callers itself.
 */
const mayStartFromCache = (request: FastifyRequest): boolean => {
  const config = request.routeOptions.config;
  // Not a WebSocket's upgrade: a socket outlives the request and resolves its caller afresh.
  if (config?.ownCallerCheck === true) return request.headers.upgrade === undefined;
  return (
    isRead(request.routeOptions.method) &&
    // Acting in another organization: its transactions would not confirm a cached caller of ours.
    request.headers[ACT_IN_TENANT_HEADER] === undefined &&
    config?.public !== true &&
    config?.freshCaller !== true &&
    config?.ownAuthentication !== true &&
    request.routeOptions.url !== undefined
  );
};

/** The credentials a request carries: its bearer token, else its session cookie. */
export const credentialsOf = (request: FastifyRequest): Credentials | null => {
  const bearer = bearerOf(request.headers.authorization);
  const cookie = request.cookies[SESSION_COOKIE];
  // The request's address and user agent ride on the context for the audit log.
  const client = { ip: request.ip, userAgent: request.headers["user-agent"] ?? "" };
  if (typeof bearer === "string") return { bearerToken: bearer, requestId: request.id, client };
  if (bearer === undefined && cookie) return { sessionToken: cookie, requestId: request.id, client };
  return null;
};

/** A tRPC request that calls more than one procedure (`/trpc/a,b?batch=1`). */
const isTrpcBatch = (request: FastifyRequest): boolean =>
  request.url.startsWith("/trpc/") && (request.url.split("?")[0] ?? "").includes(",");

const isForbidden = (error: unknown) => isAppError(error) && error.code === "FORBIDDEN";

/**
 * A platform administrator acting in another organization (decision 0084): the `x-tenant-id`
 * header swaps the context for one in that organization (act-in-tenant.ts), on the routes that
 * allow it; any other route refuses the header rather than silently acting in the caller's own.
 */
const actInNamedTenant = async (request: FastifyRequest, context: ContextService): Promise<void> => {
  const header = request.headers[ACT_IN_TENANT_HEADER];
  if (header === undefined || request.routeOptions.url === undefined) return;
  if (request.routeOptions.config?.actsInTenant !== true) {
    throw validationError([{ path: ACT_IN_TENANT_HEADER, message: "is not taken by this route" }]);
  }
  if (!request.ctx) return;
  const value = Array.isArray(header) ? (header[0] ?? "") : header;
  request.ctx = await context.actInTenant(request.ctx, value, isRead(request.method) ? "read" : "change");
};

/** The Idempotency-Key of a change, on the context (the same for REST, GraphQL and tRPC). */
const withIdempotencyKeyOf = (request: FastifyRequest, ctx: TenantContext): TenantContext => {
  const keyHeader = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (keyHeader === undefined || !UNSAFE_METHODS.has(request.method)) return ctx;
  const idempotencyKey = parseIdempotencyKey(keyHeader);
  // One key names one operation: a tRPC batch ("a,b") would give it to several.
  if (idempotencyKey && isTrpcBatch(request))
    throw validationError([{ path: "Idempotency-Key", message: "names one operation, not a batch" }]);
  return { ...ctx, idempotencyKey };
};

/** The request's caller as the database sees it now (a cached one dropped): null when it is gone. */
const resolveAfresh = async (request: FastifyRequest, context: ContextService) => {
  request.cachedCaller = null;
  // The fresh caller keeps what the request itself put on the context: its key and its end signal.
  const signal = request.ctx?.signal;
  const credentials = credentialsOf(request);
  const ctx = credentials ? await context.resolveContext(credentials) : null;
  if (!ctx) return null;
  request.ctx = withIdempotencyKeyOf(request, ctx);
  // Today no request naming an organization starts from a cached caller; should one ever, it must
  // not fall back to the caller's own organization (decision 0084).
  await actInNamedTenant(request, context);
  return request.ctx && signal ? { ...request.ctx, signal } : request.ctx;
};

/**
 * How a route that confirms its cached caller itself (`ownCallerCheck`: tRPC, GraphQL) runs one
 * operation (docs/decisions/0090-transports-at-baseline.md). Without a cached caller to confirm, `run`
 * gets the request's caller. A query (`rerunnable`) runs inside the check: its first transaction in the
 * caller's tenant confirms the caller in the statement that scopes it — no statement of its own — and
 * a query that opened none has it confirmed by one statement afterwards; if the caller changed, the
 * query runs once more with the caller resolved afresh (whatever its result said: a refusal may come
 * from the stale caller). A change runs once, its caller confirmed first: not rerunnable, or, when
 * only the operation itself knows it is a change (GraphQL), it calls `confirm` before it changes
 * anything and is then never run again.
 */
export type CallerRunner = <T>(
  rerunnable: boolean,
  run: (caller: TenantContext | null, confirm: () => Promise<TenantContext | null>) => Promise<T>,
) => Promise<T>;

export const callerRunner =
  (request: FastifyRequest, context: ContextService): CallerRunner =>
  async <T>(
    rerunnable: boolean,
    run: (caller: TenantContext | null, confirm: () => Promise<TenantContext | null>) => Promise<T>,
  ): Promise<T> => {
    const cached = request.cachedCaller;
    const check = cached?.check;
    if (!cached || !check || check.verified) return run(request.ctx, async () => request.ctx);
    let settled = false;
    const confirm = async () => {
      if (settled) return request.ctx;
      settled = true;
      if (check.verified || (await cached.recheck())) return request.ctx;
      request.ctx = await resolveAfresh(request, context);
      // The operation goes on with the caller as the database sees it: nothing is left to confirm.
      check.verified = true;
      return request.ctx;
    };
    if (!rerunnable) return run(await confirm(), confirm);
    let outcome: { result: T } | { error: unknown };
    try {
      outcome = { result: await withCallerCheck(check, () => run(request.ctx, confirm)) };
    } catch (error) {
      if (settled || (!(error instanceof CallerChangedError) && !isForbidden(error))) throw error;
      outcome = { error };
    }
    const changed = "error" in outcome && outcome.error instanceof CallerChangedError;
    if (settled || (!changed && (check.verified || (await cached.recheck())))) {
      if ("error" in outcome) throw outcome.error;
      return outcome.result;
    }
    request.ctx = await resolveAfresh(request, context);
    return run(request.ctx, async () => request.ctx);
  };

export const registerAuthContext = async (app: App, deps: { context: ContextService }) => {
  await app.register(fastifyCookie);
  app.decorateRequest("ctx", null);
  app.decorateRequest("authMethod", null);
  app.decorateRequest("cachedCaller", null);
  app.decorateRequest("callerUnavailable", false);
  app.decorateRequest("bearerRefusal", null);

  // A read that started from a cached caller is confirmed by its first transaction (see CallerCheck);
  // if the caller changed — or it was refused, or opened no transaction, and the caller changed —
  // it runs once more with the caller as the database sees it now.
  // Every read is wrapped; whether its caller starts from the cache is the route's final policy,
  // read per request (plugins set theirs in onRoute hooks that run after this one).
  app.addHook("onRoute", (route) => {
    if (!isRead(route.method)) return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = async function (this: unknown, request: FastifyRequest, reply: FastifyReply) {
      const cached = request.cachedCaller;
      const check = cached?.check;
      if (!cached || !check || request.routeOptions.config?.ownCallerCheck === true)
        return handler.call(this as never, request, reply);
      try {
        const result = await withCallerCheck(check, () => handler.call(this as never, request, reply));
        if (check.verified || reply.sent || (await cached.recheck())) return result;
      } catch (error) {
        const changed =
          error instanceof CallerChangedError || (isForbidden(error) && !(await cached.recheck()));
        if (!changed) throw error;
      }
      request.ctx = await resolveAfresh(request, deps.context);
      if (!request.ctx)
        throw new AppError("UNAUTHENTICATED", {
          reason: "auth.invalid_credentials",
          message: "Unauthorized",
        });
      return handler.call(this as never, request, reply);
    } as RouteHandlerMethod;
  });

  app.addHook("onRequest", async (request, reply) => {
    // Resolving an API context there would only repeat the route's own work.
    if (request.routeOptions.config?.ownAuthentication === true) return;
    const bearer = bearerOf(request.headers.authorization);
    const cookie = request.cookies[SESSION_COOKIE];
    const credentials = credentialsOf(request);
    if (credentials) {
      try {
        if (mayStartFromCache(request)) {
          request.cachedCaller = await deps.context.resolveCachedContext(credentials);
          request.ctx = request.cachedCaller?.ctx ?? null;
        } else {
          request.ctx = await deps.context.resolveContext(credentials);
        }
      } catch (error) {
        if (request.routeOptions.config?.ownUnavailable !== true || !isDatabaseUnreachable(error))
          throw error;
        request.callerUnavailable = true;
        return;
      }
      request.authMethod = request.ctx ? (credentials.bearerToken ? "bearer" : "cookie") : null;
      if (!request.ctx && credentials.bearerToken) {
        request.bearerRefusal = await deps.context
          .bearerRefusal(credentials.bearerToken)
          .catch((): BearerRefusal => "invalid");
      }
    }
    // A change's Idempotency-Key rides on the context, the same for REST, GraphQL and tRPC: the
    // posting services make one posting per key (packages/db/src/idempotency.ts).
    if (request.ctx) request.ctx = withIdempotencyKeyOf(request, request.ctx);
    await actInNamedTenant(request, deps.context);
    if (request.ctx) request.ctx = { ...request.ctx, signal: clientGoneSignal(reply) };
    if (isPublicRoute(request)) return;
    if (!request.ctx) {
      if (request.bearerRefusal) {
        const refused = bearerRefusalProblem(request.bearerRefusal);
        reply.header("www-authenticate", refused.wwwAuthenticate);
        throw new AppError("UNAUTHENTICATED", { reason: refused.reason, message: refused.message });
      }
      const reason =
        bearer === null
          ? "auth.unsupported_scheme"
          : cookie
            ? "auth.invalid_credentials"
            : "auth.unauthenticated";
      throw new AppError("UNAUTHENTICATED", { reason, message: "Unauthorized" });
    }
    if (request.authMethod === "cookie" && UNSAFE_METHODS.has(request.method) && !isNonSimple(request)) {
      throw new AppError("FORBIDDEN", {
        reason: "auth.csrf_required",
        message: `Cookie-authenticated changes need a JSON body or the ${CSRF_HEADER} header`,
      });
    }
  });
};

/** Sets the `session` cookie: HttpOnly, SameSite=Lax, Secure over https, expiring with the session. */
export const setSessionCookie = (reply: FastifyReply, token: string, expiresAt: Date, secure: boolean) =>
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    expires: expiresAt,
  });

export const clearSessionCookie = (reply: FastifyReply, secure: boolean) =>
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: "lax", secure, path: "/" });

/** Secure cookies when the public URL is https or the request came over https (behind a trusted proxy). */
export const isSecureRequest = (request: FastifyRequest, issuerUrl: string): boolean =>
  issuerUrl.startsWith("https://") || request.protocol === "https";
