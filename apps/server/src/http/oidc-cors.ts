import fastifyCors, { type FastifyCorsOptions } from "@fastify/cors";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { RATE_LIMIT_HEADERS } from "./oidc-rate-limit";

/*
 * CORS for the OpenID provider's browser-callable endpoints (token, userinfo, keys, revoke), for the
 * origins of OIDC_ALLOWED_ORIGINS only. Register inside the OIDC routes plugin:
 *
 *   await app.register(oidcCors, { allowedOrigins: env.oidc.allowedOrigins });
 *
 * An allowed origin gets its own origin back in Access-Control-Allow-Origin (never `*`, never
 * credentials: browsers send the client's Authorization header explicitly, cookies never). Any other
 * origin, and every other route (authorize, discovery, ...), gets no Access-Control-* header; a
 * preflight from them is not answered (404). Responses under the registering plugin carry
 * `Vary: Origin` (they depend on it; keys and discovery are cacheable). With no allowed origins the
 * plugin does nothing.
 */

/** Routes open to the allowed origins, with the methods a browser may use on them. */
export const OIDC_CORS_ROUTES: Readonly<Record<string, readonly string[]>> = {
  "/oidc/token": ["POST"],
  "/oidc/revoke": ["POST"],
  "/oidc/userinfo": ["GET", "POST"],
  "/oidc/keys": ["GET"],
};

export type OidcCorsOptions = {
  /** `env.oidc.allowedOrigins`: normalised `scheme://host[:port]`. */
  allowedOrigins: readonly string[];
  /** Seconds a browser may cache a preflight answer. */
  preflightMaxAge?: number;
};

const ALLOWED_HEADERS = ["Authorization", "Content-Type"];
/** Response headers a cross-origin caller may read besides the CORS-safelisted ones. */
const EXPOSED_HEADERS = [
  RATE_LIMIT_HEADERS.limit,
  RATE_LIMIT_HEADERS.remaining,
  RATE_LIMIT_HEADERS.reset,
  RATE_LIMIT_HEADERS.retryAfter,
  "www-authenticate",
];

const PREFLIGHT_ROUTE = "*";

/** The path a request addresses: its route's, or for the plugin's catch-all preflight route the URL's. */
const pathOf = (request: FastifyRequest): string => {
  const route = request.routeOptions.url;
  if (route !== undefined && route !== PREFLIGHT_ROUTE) return route;
  const query = request.url.indexOf("?");
  return query < 0 ? request.url : request.url.slice(0, query);
};

const plugin = async (app: FastifyInstance, options: OidcCorsOptions) => {
  const allowed = new Set(options.allowedOrigins);
  if (allowed.size === 0) return;
  const maxAge = options.preflightMaxAge ?? 600;

  // @fastify/cors answers preflights from an OPTIONS `*` route it adds. Our authentication hook (root
  // scope, runs first) guards every route not marked public, which would answer browsers' preflights
  // (they carry no credentials) with 401; a preflight needs none, so the route is public.
  app.addHook("onRoute", (route) => {
    if (route.method === "OPTIONS" && route.url === PREFLIGHT_ROUTE) {
      route.config = { ...route.config, public: true };
    }
  });

  const corsOptionsFor = (request: FastifyRequest): FastifyCorsOptions => {
    const methods = OIDC_CORS_ROUTES[pathOf(request)];
    const origin = request.headers.origin;
    if (methods === undefined || origin === undefined || !allowed.has(origin)) return { origin: false };
    return {
      origin,
      methods: [...methods],
      allowedHeaders: ALLOWED_HEADERS,
      exposedHeaders: EXPOSED_HEADERS,
      credentials: false,
      maxAge,
      strictPreflight: true,
    };
  };

  await app.register(fastifyCors, {
    hook: "onRequest",
    delegator: (request, callback) => callback(null, corsOptionsFor(request)),
  });
};

/** Fastify plugin (not encapsulated: its hooks apply to the routes of the plugin registering it). */
export const oidcCors = fp(plugin, { name: "hisob-oidc-cors", fastify: "5.x" });
