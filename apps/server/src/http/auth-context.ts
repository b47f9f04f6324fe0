import fastifyCookie from "@fastify/cookie";
import type { CachedContext, ContextService, Credentials } from "@hisob/core";
import { CallerChangedError, withCallerCheck } from "@hisob/db";
import { AppError, isAppError, parseAuthorization, type TenantContext } from "@hisob/kernel";
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from "fastify";
import type { App } from "../server";

declare module "fastify" {
  interface FastifyRequest {
    /** The caller's context when it sent valid credentials (a session cookie or a bearer token). */
    ctx: TenantContext | null;
    authMethod: "cookie" | "bearer" | null;
    /** Set when `ctx` came from the cache of resolved callers and is still to be confirmed. */
    cachedCaller: CachedContext | null;
  }
  interface FastifyContextConfig {
    /** The route works without credentials (health, docs, login). Every other route requires them. */
    public?: boolean;
    /** Set by registerAuthContext on the reads that may start from a cached caller. */
    cachedCaller?: boolean;
  }
}

export const SESSION_COOKIE = "session";
/** Any value in this header makes a request non-simple: browsers send it cross-origin only after a preflight we never allow. */
export const CSRF_HEADER = "x-csrf-token";

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
// Routes registered by plugins we do not configure per route. /trpc answers an anonymous caller
// itself, in tRPC's error shape (its procedures require the caller resolved here).
const PUBLIC_PREFIXES = ["/docs", "/openapi.json", "/trpc"];

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

const isPublicRoute = (request: FastifyRequest): boolean => {
  if (request.routeOptions.config?.public === true) return true;
  const url = request.routeOptions.url;
  // No route matched: let the not-found handler answer 404.
  if (url === undefined) return true;
  return PUBLIC_PREFIXES.some((prefix) => url === prefix || url.startsWith(`${prefix}/`));
};

/**
 * Reads whose handler may be run a second time: GET/HEAD of the REST API, except the streamed
 * exports (the reply may be on its way before the caller is confirmed) and the routes that resolve
 * callers themselves (tRPC, GraphQL, OIDC).
 */
const mayStartFromCache = (method: string | string[], url: string, isPublic: boolean): boolean =>
  !isPublic &&
  [method].flat().every((m) => m === "GET" || m === "HEAD") &&
  !/\/export(\/|$)|\/content$/.test(url) &&
  !["/trpc", "/graphql", "/api/graphql", "/oidc/", "/.well-known/", ...PUBLIC_PREFIXES].some((prefix) =>
    url.startsWith(prefix),
  );

const credentialsOf = (request: FastifyRequest): Credentials | null => {
  const bearer = bearerOf(request.headers.authorization);
  const cookie = request.cookies[SESSION_COOKIE];
  // The request's address and user agent ride on the context for the audit log.
  const client = { ip: request.ip, userAgent: request.headers["user-agent"] ?? "" };
  if (typeof bearer === "string") return { bearerToken: bearer, requestId: request.id, client };
  if (bearer === undefined && cookie) return { sessionToken: cookie, requestId: request.id, client };
  return null;
};

const isForbidden = (error: unknown) => isAppError(error) && error.code === "FORBIDDEN";

export const registerAuthContext = async (app: App, deps: { context: ContextService }) => {
  await app.register(fastifyCookie);
  app.decorateRequest("ctx", null);
  app.decorateRequest("authMethod", null);
  app.decorateRequest("cachedCaller", null);

  // A read that started from a cached caller is confirmed by its first transaction (see CallerCheck);
  // if the caller changed — or it was refused, or opened no transaction, and the caller changed —
  // it runs once more with the caller as the database sees it now.
  app.addHook("onRoute", (route) => {
    if (!mayStartFromCache(route.method, route.url, route.config?.public === true)) return;
    route.config = { ...route.config, cachedCaller: true };
    const handler = route.handler as RouteHandlerMethod;
    route.handler = async function (this: unknown, request: FastifyRequest, reply: FastifyReply) {
      const cached = request.cachedCaller;
      const check = cached?.check;
      if (!cached || !check) return handler.call(this as never, request, reply);
      try {
        const result = await withCallerCheck(check, () => handler.call(this as never, request, reply));
        if (check.verified || reply.sent || (await cached.recheck())) return result;
      } catch (error) {
        const changed =
          error instanceof CallerChangedError || (isForbidden(error) && !(await cached.recheck()));
        if (!changed) throw error;
      }
      request.cachedCaller = null;
      const credentials = credentialsOf(request);
      request.ctx = credentials ? await deps.context.resolveContext(credentials) : null;
      if (!request.ctx)
        throw new AppError("UNAUTHENTICATED", {
          reason: "auth.invalid_credentials",
          message: "Unauthorized",
        });
      return handler.call(this as never, request, reply);
    } as RouteHandlerMethod;
  });

  app.addHook("onRequest", async (request) => {
    // The OpenID provider authenticates its callers itself (clients, its own tokens, the login
    // session): resolving an API context there would only repeat that work.
    const url = request.routeOptions.url ?? "";
    if (url.startsWith("/oidc/") || url.startsWith("/.well-known/")) return;
    const bearer = bearerOf(request.headers.authorization);
    const cookie = request.cookies[SESSION_COOKIE];
    const credentials = credentialsOf(request);
    if (credentials) {
      if (request.routeOptions.config?.cachedCaller) {
        request.cachedCaller = await deps.context.resolveCachedContext(credentials);
        request.ctx = request.cachedCaller?.ctx ?? null;
      } else {
        request.ctx = await deps.context.resolveContext(credentials);
      }
      request.authMethod = request.ctx ? (credentials.bearerToken ? "bearer" : "cookie") : null;
    }
    if (isPublicRoute(request)) return;
    if (!request.ctx) {
      const reason =
        bearer === null
          ? "auth.unsupported_scheme"
          : bearer || cookie
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
