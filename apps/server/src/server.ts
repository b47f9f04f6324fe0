import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { coreOperations } from "@hisob/core";
import { crmOperations } from "@hisob/crm";
import { financeOperations } from "@hisob/finance";
import { hrmOperations } from "@hisob/hrm";
import { type Clock, systemClock } from "@hisob/kernel";
import type { OidcProvider } from "@hisob/oidc";
import { projectsOperations } from "@hisob/projects";
import { warehouseOperations } from "@hisob/warehouse";
import Fastify, { type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { App } from "./app";
import type { AppServices } from "./app-services";
import { closeConnectionsWhileDraining, createDrain, type Drain } from "./drain";
import type { Env } from "./env";
import { createExternalSignIn, type ExternalSignIn } from "./external-sign-in/external-sign-in";
import { externalSignInRoutes } from "./external-sign-in/external-sign-in.routes";
import { type GraphqlRoutesOptions, graphqlRoutes } from "./transports/graphql/graphql.routes";
import { oidcRoutes } from "./transports/oidc/oidc.routes";
import { accountRoutes } from "./transports/rest/account.routes";
import { auditRoutes } from "./transports/rest/audit.routes";
import { healthRoutes } from "./transports/rest/health";
import { loginRoutes } from "./transports/rest/login.routes";
import { oidcAdminRoutes } from "./transports/rest/oidc-admin.routes";
import { registerOpenApi } from "./transports/rest/openapi";
import { registerOperationRoutes } from "./transports/rest/operation-routes";
import { uploadsRoutes } from "./transports/rest/uploads.routes";
import { type WebApp, webAppsRoutes } from "./transports/rest/web-apps.routes";
import { apiRateLimit } from "./transports/shared/api-rate-limit";
import { registerAuthContext } from "./transports/shared/auth-context";
import { dropForgedForwardedFor } from "./transports/shared/client-address";
import { registerErrorHandlers, sendError } from "./transports/shared/errors";
import { trpcRoutes } from "./transports/trpc/trpc.routes";

export type ServerDeps = {
  env: Env;
  db: { ping(): Promise<void> };
  /** The module services behind the API routes; without them only health and docs are served. */
  services?: AppServices;
  /** The OpenID provider (its routes are mounted when given). */
  oidc?: OidcProvider;
  /** Fastify logger option: false to silence, or pino options. Default: JSON logs at env's LOG_LEVEL. */
  logger?: FastifyServerOptions["logger"];
  /** Domain events after commit (the outbox): feed GraphQL subscriptions. */
  events?: GraphqlRoutesOptions["events"];
  /** GraphQL test hooks: lower limits, extra modules, access to the pub/sub. */
  graphql?: Pick<GraphqlRoutesOptions, "limits" | "extraModules" | "onPubSub">;
  /** Time source of the OIDC rate-limit windows (tests pass their manual clock); default the system clock. */
  clock?: Clock;
  /** The single-page apps served under their prefixes (default: the built accountant app at /app). */
  webApps?: readonly WebApp[];
  /** Set when the server drains before a shutdown (main.ts); default: one of its own that never starts. */
  drain?: Drain;
};

/** JSON bodies; file uploads get their own per-route limit. */
export const BODY_LIMIT = 1024 * 1024;

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Keeps a caller's x-request-id for tracing across services, unless it could smuggle anything into logs. */
export const genReqId = (request: IncomingMessage): string => {
  const incoming = request.headers["x-request-id"];
  return typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
};

/** Builds the app without listening or calling ready(), so callers (and tests) can add routes first. */
export const buildServer = async (deps: ServerDeps): Promise<App> => {
  const { env } = deps;
  const logger = deps.logger === undefined || deps.logger === true ? { level: env.log.level } : deps.logger;

  const app: App = Fastify({
    logger,
    genReqId,
    // genReqId reads the header itself so it can validate it; Fastify would take it verbatim.
    requestIdHeader: false,
    requestIdLogLabel: "requestId",
    trustProxy: env.server.trustProxy,
    bodyLimit: BODY_LIMIT,
    // A tRPC batch names its calls in one path parameter (`/trpc/a,b,c`): room for a full batch, so a
    // larger one meets the batch limit's clear answer rather than a 404 (Fastify's default is 100).
    routerOptions: { maxParamLength: 2048 },
    onProtoPoisoning: "error",
    onConstructorPoisoning: "error",
    // Errors raised before routing (a malformed URL) get the same envelope.
    frameworkErrors: (error, request, reply) => sendError(error, request, reply),
    // On close: idle kept-alive connections are closed at once; a request already on its way over one
    // is served (with `connection: close`, see drain.ts), not refused with 503.
    forceCloseConnections: "idle",
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();
  const drain = deps.drain ?? createDrain();
  closeConnectionsWhileDraining(app, drain);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Served at an https issuer, browsers are told to come back over https only (a year; no subdomains:
  // the deployment does not own its siblings). docs/decisions/0014-graphql-introspection-caching-hsts.md
  const hsts = new URL(env.oidc.issuerUrl).protocol === "https:";
  const trustsProxies = env.server.trustProxy !== false;
  app.addHook("onRequest", async (request, reply) => {
    // Before anything reads request.ip: a forwarded value that is not an address is the client's own.
    if (trustsProxies) dropForgedForwardedFor(request.raw);
    reply.header("x-request-id", request.id);
    if (hsts) reply.header("strict-transport-security", "max-age=31536000");
  });
  registerErrorHandlers(app);

  await registerOpenApi(app);
  await app.register(healthRoutes, { db: deps.db, drain });
  if (deps.services) await registerApiRoutes(app, deps.services, deps);

  return app;
};

/** Every API route, behind one context hook (cookie or bearer → TenantContext; CSRF rules). */
const registerApiRoutes = async (app: App, services: AppServices, deps: ServerDeps) => {
  const { env, oidc, clock } = deps;
  const externalSignIn = createConfiguredExternalSignIn(app, services, env, clock);
  await registerAuthContext(app, { context: services.context });
  await app.register(apiRateLimit, { limits: env.apiRateLimit, redisUrl: env.redis.url, clock });
  await app.register(accountRoutes, {
    services,
    issuerUrl: env.oidc.issuerUrl,
    ...(externalSignIn ? { external: { name: externalSignIn.name } } : {}),
  });
  await app.register(loginRoutes, {
    services,
    issuerUrl: env.oidc.issuerUrl,
    ...(externalSignIn ? { external: { name: externalSignIn.name } } : {}),
    ...(oidc ? { appNameFor: authorizingAppName(oidc) } : {}),
  });
  if (externalSignIn) {
    await app.register(externalSignInRoutes, { externalSignIn, issuerUrl: env.oidc.issuerUrl });
  }
  // Routes derived from the operation catalogs: core's administration here (users, roles, groups,
  // tenants), sessions after the audit log, the rest after the hand-written routes (the OpenAPI
  // document lists them in this order).
  const { profile, currencies, sessions, consents, settings, ...administration } = coreOperations;
  // A platform administrator may run these in another organization (decision 0084).
  const actsInTenant = { actsInTenant: true };
  await app.register(async (scope: App) =>
    registerOperationRoutes(scope, administration, services, actsInTenant),
  );
  await app.register(auditRoutes, { services });
  await app.register(async (scope: App) =>
    registerOperationRoutes(scope, { sessions }, services, actsInTenant),
  );
  await app.register(uploadsRoutes, { services });
  // Core's account, currencies and the organization's settings (its books' setup, not
  // administration); all of finance, CRM, Warehouse, Projects and HRM.
  await app.register(async (scope: App) => {
    // Another user's consents (under /users) are administration too; one's own (/account) are not.
    registerOperationRoutes(scope, { profile, consents, currencies, settings }, services, {
      actsInTenant: (operation) => operation.http.path.startsWith("/users/"),
    });
    registerOperationRoutes(scope, financeOperations, services.finance);
    registerOperationRoutes(scope, crmOperations, services.crm);
    registerOperationRoutes(scope, warehouseOperations, services.warehouse);
    registerOperationRoutes(scope, projectsOperations, services.projects);
    registerOperationRoutes(scope, hrmOperations, services.hrm);
  });
  await app.register(trpcRoutes, { services });
  await app.register(webAppsRoutes, { apps: deps.webApps });
  await app.register(graphqlRoutes, {
    services,
    env,
    events: deps.events,
    clock,
    externalSignIn,
    ...deps.graphql,
  });
  if (oidc) await app.register(oidcRoutes, { services, oidc, env, clock });
  if (oidc) await app.register(oidcAdminRoutes, { oidc });
};

/** The login page names the application whose authorize request it continues (docs/decisions/0036-oidc-consent.md). */
const authorizingAppName = (oidc: OidcProvider) => async (next: string) => {
  const url = new URL(next, oidc.config.issuer);
  const clientId = url.searchParams.get("client_id");
  if (url.pathname !== "/oidc/authorize" || !clientId || clientId.length > 200) return undefined;
  return (await oidc.clients.findActive(clientId))?.name;
};

/** The upstream OpenID sign-in when EXTERNAL_OIDC_* is set (it seals its flow cookie with OIDC_CRYPTO_KEY). */
const createConfiguredExternalSignIn = (
  app: App,
  services: AppServices,
  env: Env,
  clock: Clock | undefined,
): ExternalSignIn | undefined => {
  if (!env.externalOidc) return undefined;
  const cryptoKey = env.oidc.cryptoKey;
  if (!cryptoKey)
    throw new Error("external sign-in needs OIDC_CRYPTO_KEY (resolve the development key first)");
  return createExternalSignIn({
    config: env.externalOidc,
    cryptoKey,
    auth: services.auth,
    clock: clock ?? systemClock,
    log: app.log,
  });
};
