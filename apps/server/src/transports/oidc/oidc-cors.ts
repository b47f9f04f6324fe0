import fastifyCors, { type FastifyCorsOptions } from "@fastify/cors";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { RATE_LIMIT_HEADERS } from "../shared/window-counters";

/*
 * CORS for the OpenID provider's browser-callable endpoints (token, userinfo, keys, revoke), for the
 * origins of OIDC_ALLOWED_ORIGINS only. A route opts in by its configuration, where it is declared
 * (`config: { oidcCors: true }`); register the plugin first inside the routes' plugin:
 *
 *   await app.register(oidcCors, { allowedOrigins: env.oidc.allowedOrigins });
 *
 * An allowed origin gets its own origin back in Access-Control-Allow-Origin (never `*`, never
 * credentials: browsers send the client's Authorization header explicitly, cookies never). Any other
 * origin, and every route without `oidcCors` (authorize, discovery, ...), gets no Access-Control-*
 * header; a preflight from them is not answered (404). A preflight names no route of its own: it is
 * answered for a path where routes opted in, with their methods. Responses under the registering
 * plugin carry `Vary: Origin` (they depend on it; keys and discovery are cacheable). With no allowed
 * origins the plugin does nothing.
 *
 * Beside the operator's list, an origin that an active OIDC client lists in its web origins is allowed
 * the same way (`clientOrigins`, docs/decisions/0085-oidc-client-settings.md): a preflight names no
 * client, so the answer is per origin, not per client.
 */

declare module "fastify" {
  interface FastifyContextConfig {
    /** Browsers at OIDC_ALLOWED_ORIGINS may call this route (the `oidcCors` plugin in its scope). */
    oidcCors?: boolean;
  }
}

export type OidcCorsOptions = {
  /** `env.oidc.allowedOrigins`: normalised `scheme://host[:port]`. */
  allowedOrigins: readonly string[];
  /** Whether an active client lists this origin in its web origins (decision 0085). */
  clientOrigins?: (origin: string) => Promise<boolean>;
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

/** Methods a browser could use on a route; HEAD (Fastify's twin of each GET) and OPTIONS are not asked for. */
const CORS_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

const urlPath = (request: FastifyRequest): string => {
  const query = request.url.indexOf("?");
  return query < 0 ? request.url : request.url.slice(0, query);
};

const plugin = async (app: FastifyInstance, options: OidcCorsOptions) => {
  const allowed = new Set(options.allowedOrigins);
  const { clientOrigins } = options;
  if (allowed.size === 0 && clientOrigins === undefined) return;
  const maxAge = options.preflightMaxAge ?? 600;

  // The methods open to browsers, by route path, from the routes' own configuration.
  const methodsByPath = new Map<string, string[]>();
  app.addHook("onRoute", (route) => {
    // @fastify/cors answers preflights from an OPTIONS `*` route it adds. Our authentication hook
    // (root scope, runs first) guards every route not marked public, which would answer browsers'
    // preflights (they carry no credentials) with 401; a preflight needs none, so the route is public.
    if (route.method === "OPTIONS" && route.url === PREFLIGHT_ROUTE) {
      route.config = { ...route.config, public: true };
      return;
    }
    if (route.config?.oidcCors !== true) return;
    const methods = methodsByPath.get(route.url) ?? [];
    for (const method of [route.method].flat()) {
      if (CORS_METHODS.has(method) && !methods.includes(method)) methods.push(method);
    }
    methodsByPath.set(route.url, methods);
  });

  /** A route's methods when it opted in; for a preflight (or no route), those of the URL's path. */
  const methodsFor = (request: FastifyRequest): string[] | undefined => {
    const { url, config } = request.routeOptions;
    if (url === undefined || url === PREFLIGHT_ROUTE) return methodsByPath.get(urlPath(request));
    return config?.oidcCors === true ? methodsByPath.get(url) : undefined;
  };

  const corsOptionsFor = async (request: FastifyRequest): Promise<FastifyCorsOptions> => {
    const methods = methodsFor(request);
    const origin = request.headers.origin;
    if (methods === undefined || origin === undefined) return { origin: false };
    if (!allowed.has(origin) && !(await clientOrigins?.(origin))) return { origin: false };
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
    delegator: (request, callback) => {
      corsOptionsFor(request).then(
        (options) => callback(null, options),
        (error: unknown) => callback(error as Error),
      );
    },
  });
};

/** Fastify plugin (not encapsulated: its hooks apply to the routes of the plugin registering it). */
export const oidcCors = fp(plugin, { name: "hisob-oidc-cors", fastify: "5.x" });
