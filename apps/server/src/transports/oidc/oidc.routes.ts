import fastifyFormbody from "@fastify/formbody";
import { type CoreServices, hashToken, looksLikeToken } from "@hisob/core";
import { toProblem } from "@hisob/db";
import { type Clock, type ErrorCode, parseAuthorization } from "@hisob/kernel";
import { isOidcError, type LoginSession, OidcError, type OidcProvider } from "@hisob/oidc";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { Env } from "../../env";
import { authorizeErrorPage } from "../../pages/authorize-error.page";
import { sendPage } from "../../pages/layout";
import { clearSessionCookie, isSecureRequest, routePolicy, SESSION_COOKIE } from "../shared/auth-context";
import { requestLocale } from "../shared/locale";
import { consentRoutes, sendConsentPage } from "./consent.routes";
import { oidcCors } from "./oidc-cors";
import { oidcRateLimit } from "./oidc-rate-limit";

// The OpenID provider's endpoints. They keep the RFC wire format `{ error, error_description }`
// (not our REST envelope), so this plugin has its own error handler for everything under it.

type Options = { services: CoreServices; oidc: OidcProvider; env: Env; clock?: Clock };
type FormBody = Record<string, string | string[] | undefined>;

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

const sendOidcError = (reply: FastifyReply, error: OidcError) => {
  if (error.error === "invalid_client")
    reply.header("www-authenticate", 'Basic realm="hisob", charset="UTF-8"');
  if (error.error === "invalid_token") {
    const description = error.description.replace(/["\\]/g, "");
    reply.header(
      "www-authenticate",
      `Bearer realm="hisob", error="invalid_token", error_description="${description}"`,
    );
  }
  return reply
    .code(error.status)
    .headers(NO_STORE)
    .type("application/json; charset=utf-8")
    .send(error.toJSON());
};

/** A browser navigating asks for text/html first; fetch/curl/openid-client do not. */
const wantsHtml = (request: FastifyRequest): boolean => {
  const accept = request.headers.accept;
  return typeof accept === "string" && accept.length <= 1024 && /(^|,)\s*text\/html\b/i.test(accept);
};

/**
 * A failure that is not the provider's own OidcError, in the RFC's words: what it is comes from the
 * one transport-agnostic mapping (`toProblem`); each code gets its OIDC error here, exhaustively.
 */
const oidcErrorOf = (code: ErrorCode): OidcError => {
  switch (code) {
    case "VALIDATION_ERROR":
      return new OidcError("invalid_request", "Malformed request");
    case "UNAVAILABLE":
    case "RATE_LIMITED":
      return new OidcError("temporarily_unavailable", "The service is temporarily unavailable");
    case "UNAUTHENTICATED":
    case "FORBIDDEN":
    case "NOT_FOUND":
    case "CONFLICT":
    case "BUSINESS_RULE":
    case "INTERNAL":
      // The provider raises OidcErrors for its own refusals; any of these reaching here is a bug.
      return new OidcError("server_error", "Internal server error");
    default: {
      const unmapped: never = code;
      throw new Error(`No OIDC error for ${String(unmapped)}`);
    }
  }
};

const formOf = (request: FastifyRequest): FormBody => {
  const type = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new OidcError("invalid_request", "The body must be application/x-www-form-urlencoded");
  }
  return (request.body ?? {}) as FormBody;
};

const bearerToken = (request: FastifyRequest): string | undefined => {
  const authorization = parseAuthorization(request.headers.authorization);
  if (authorization.scheme === "none") return undefined;
  if (authorization.scheme !== "bearer")
    throw new OidcError("invalid_token", "Malformed Authorization header");
  return authorization.token;
};

export const oidcRoutes: FastifyPluginAsync<Options> = async (app, { services, oidc, env, clock }) => {
  // The provider authenticates its callers itself (clients, its own tokens, the login session).
  // Which routes browsers at OIDC_ALLOWED_ORIGINS and clients' web origins may call (oidcCors) and which window each counts
  // in (oidcRateLimit) is each route's configuration below; these two plugins read it.
  app.addHook("onRoute", routePolicy({ ownAuthentication: true }));
  // The token, revoke and introspection endpoints (and end_session by POST) take form bodies (RFC 6749).
  await app.register(fastifyFormbody);
  await app.register(oidcCors, {
    allowedOrigins: env.oidc.allowedOrigins,
    clientOrigins: oidc.webOrigins.allows,
  });
  await app.register(oidcRateLimit, { limits: env.rateLimit, redisUrl: env.redis.url, clock });
  app.setErrorHandler((error, request, reply) => {
    if (isOidcError(error)) return sendOidcError(reply, error);
    const status = (error as { statusCode?: number }).statusCode;
    if (typeof status === "number" && status >= 400 && status < 500) {
      // Malformed bodies and the like, caught by Fastify before our code.
      return sendOidcError(reply, new OidcError("invalid_request", "Malformed request"));
    }
    const problem = toProblem(error);
    if (problem.code === "VALIDATION_ERROR")
      request.log.info({ reason: problem.reason }, "oidc: invalid input");
    else request.log.error({ err: error, code: problem.code }, "oidc: request failed");
    return sendOidcError(reply, oidcErrorOf(problem.code));
  });

  const loginSession = async (request: FastifyRequest): Promise<LoginSession | null> => {
    const cookie = request.cookies[SESSION_COOKIE];
    if (!cookie) return null;
    const principal = await services.auth.resolveSessionToken(cookie);
    if (!principal?.sessionId || !principal.authTime) return null;
    return {
      tenantId: principal.tenantId,
      userId: principal.userId,
      sessionId: principal.sessionId,
      authTime: principal.authTime,
    };
  };

  app.get(
    "/.well-known/openid-configuration",
    { config: { public: true }, schema: { tags: ["oidc"], summary: "OpenID Provider discovery document" } },
    async (_request, reply) => reply.header("cache-control", "public, max-age=3600").send(oidc.discovery()),
  );

  app.get(
    "/oidc/authorize",
    {
      config: { public: true, oidcRateLimit: "authorize" },
      schema: { tags: ["oidc"], summary: "Start the authorization code flow" },
    },
    async (request, reply) => {
      const query = request.query as Record<string, string | string[] | undefined>;
      // The session is read with the client, in the session's tenant (docs/decisions/0104-transports-ahead-of-their-peers.md).
      const cookie = request.cookies[SESSION_COOKIE];
      const outcome = await oidc.authorize(query, {
        sessionHash: cookie && looksLikeToken(cookie) ? hashToken(cookie) : null,
        returnTo: request.url,
      });
      if (outcome.type === "error") {
        // A browser gets a page in its language; API callers and tests keep the RFC JSON.
        if (wantsHtml(request))
          return sendPage(
            reply.headers(NO_STORE),
            outcome.error.status,
            requestLocale(request),
            authorizeErrorPage({ locale: requestLocale(request), description: outcome.error.description }),
          );
        return sendOidcError(reply, outcome.error);
      }
      if (outcome.type === "redirect") return reply.headers(NO_STORE).redirect(outcome.location, 302);
      if (outcome.type === "consent")
        return sendConsentPage(request, reply.headers(NO_STORE), oidc.config.issuer, outcome.consent);
      const uiLocales =
        typeof query.ui_locales === "string" ? `&ui_locales=${encodeURIComponent(query.ui_locales)}` : "";
      const again = outcome.reauthenticate ? "&prompt=login" : "";
      return reply
        .headers(NO_STORE)
        .redirect(`/login?next=${encodeURIComponent(outcome.returnTo)}${uiLocales}${again}`, 302);
    },
  );

  await app.register(consentRoutes, { oidc, loginSession });

  app.post(
    "/oidc/token",
    {
      config: { public: true, oidcCors: true, oidcRateLimit: "token" },
      schema: { tags: ["oidc"], summary: "Exchange an authorization code or a refresh token" },
    },
    async (request, reply) => {
      const tokens = await oidc.token(
        formOf(request),
        { authorization: request.headers.authorization },
        { requestId: request.id, client: { ip: request.ip, userAgent: request.headers["user-agent"] ?? "" } },
      );
      return reply.headers(NO_STORE).send(tokens);
    },
  );

  const userinfo = async (request: FastifyRequest, reply: FastifyReply) =>
    reply.headers(NO_STORE).send(await oidc.userinfo(bearerToken(request)));
  const userinfoRoute = {
    config: { public: true, oidcCors: true, oidcRateLimit: "userinfo" as const },
    schema: { tags: ["oidc"], summary: "Claims about the signed-in user" },
  };
  app.get("/oidc/userinfo", userinfoRoute, userinfo);
  app.post("/oidc/userinfo", userinfoRoute, userinfo);

  app.get(
    "/oidc/keys",
    {
      config: { public: true, oidcCors: true, oidcRateLimit: "keys" },
      schema: { tags: ["oidc"], summary: "The public signing keys (JWK set)" },
    },
    async (_request, reply) => reply.header("cache-control", "public, max-age=300").send(oidc.keys.jwks()),
  );

  app.post(
    "/oidc/revoke",
    {
      config: { public: true, oidcCors: true },
      schema: { tags: ["oidc"], summary: "Revoke an access or refresh token (RFC 7009)" },
    },
    async (request, reply) => {
      await oidc.revoke(formOf(request), { authorization: request.headers.authorization });
      return reply.headers(NO_STORE).code(200).send();
    },
  );

  app.post(
    "/oidc/introspect",
    {
      config: { public: true },
      schema: { tags: ["oidc"], summary: "Token introspection for the client's own tokens (RFC 7662)" },
    },
    async (request, reply) =>
      reply
        .headers(NO_STORE)
        .send(await oidc.introspect(formOf(request), { authorization: request.headers.authorization })),
  );

  /**
   * RP-initiated logout: ends the login session named by the ID token hint (and the browser's own),
   * which deletes their grants and tokens, then returns to the client or to our login page.
   */
  const endSession = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = (request.method === "POST" ? formOf(request) : request.query) as FormBody;
    const cookie = request.cookies[SESSION_COOKIE];
    const browserSession = cookie ? await services.auth.resolveSessionToken(cookie) : null;
    const outcome = await oidc.endSession(params, browserSession?.sessionId ?? null);
    await services.auth.endSessions(outcome.sessionIds, {
      requestId: request.id,
      client: { ip: request.ip, userAgent: request.headers["user-agent"] ?? "" },
    });
    clearSessionCookie(reply, isSecureRequest(request, oidc.config.issuer));
    const location = outcome.type === "redirect" ? outcome.location : "/login";
    return reply.headers(NO_STORE).redirect(location, 302);
  };
  const endSessionSchema = {
    config: { public: true },
    schema: { tags: ["oidc"], summary: "RP-initiated logout" },
  };
  app.get("/oidc/end_session", endSessionSchema, endSession);
  app.post("/oidc/end_session", endSessionSchema, endSession);
};
