import { createHash } from "node:crypto";
import fastifyWebsocket from "@fastify/websocket";
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailable, isDatabaseUnreachable } from "@hisob/db";
import type { GraphqlLimits, GraphqlModule, GraphqlRequestContext } from "@hisob/graphql";
import {
  accessChangedTopic,
  bridgeGraphqlEvents,
  createMemoryPubSub,
  OIDC_CLIENTS_TOPIC,
  type PubSub,
  sessionDeletedTopic,
} from "@hisob/graphql/events";
import { ownRefusal } from "@hisob/graphql/refusals";
import { createWorkGates, nestedGate } from "@hisob/graphql/work-gate";
import { AppError, type Clock, type EventHandler, systemClock, type TenantContext } from "@hisob/kernel";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import type { App } from "../../app";
import type { AppServices } from "../../app-services";
import type { Env } from "../../env";
import type { ExternalSignIn } from "../../external-sign-in/external-sign-in";
import { setFlowCookie } from "../../external-sign-in/external-sign-in.routes";
import { safeNextPath } from "../../pages/form-security";
import { connectRedis } from "../../redis";
import {
  bearerOf,
  bearerRefusalProblem,
  callerRunner,
  clearSessionCookie,
  isNonSimple,
  isSecureRequest,
  setSessionCookie,
} from "../shared/auth-context";
import { localizeProblem, toHttpProblem } from "../shared/errors";
import { requestLocale } from "../shared/locale";
import {
  createMemoryWindowCounter,
  createRedisWindowCounter,
  RATE_LIMIT_HEADERS,
  type WindowCounter,
} from "../shared/window-counters";
import {
  CLOSE_GOING_AWAY,
  CLOSE_REASON_TENANT_DEACTIVATED,
  CLOSE_TRY_AGAIN,
  CLOSE_UNAUTHORIZED,
} from "./close-codes";
import { graphiqlRoutes } from "./graphiql";
import type { GraphqlEngine, GraphqlSocket } from "./graphql-engine";
import type { GraphqlAnswer } from "./json-post";
import { createRedisPubSub } from "./redis-pubsub";

/*
 * The GraphQL transport: POST and GET /api/graphql (JSON; a JSON array is a batch), graphql-ws
 * subscriptions on the same path, GraphiQL at /graphql (graphiql.ts). Around yoga it adds what is per caller:
 * authentication (cookie, bearer: session token or first-party OIDC access token), the CSRF rule,
 * the rate limit with X-RateLimit-* headers, ETags per caller and the Cache-Control split.
 */

export const GRAPHQL_PATH = "/api/graphql";
export const GRAPHIQL_PATH = "/graphql";
/** Largest request body: a batch of large documents still fits; anything larger is 413. */
export const GRAPHQL_BODY_LIMIT = 256 * 1024;

export type GraphqlRoutesOptions = {
  services: AppServices;
  env: Env;
  /** The outbox: SessionDeleted events feed the `sessionDeleted` subscription. */
  events?: { subscribe(type: string, handler: EventHandler): () => void } | undefined;
  clock?: Clock | undefined;
  /** Tests lower the limits (timeout, cost) or add modules (a slow field). */
  limits?: Partial<GraphqlLimits> | undefined;
  extraModules?: readonly GraphqlModule[] | undefined;
  /** Sign-in through the upstream OpenID provider, when configured (`googleAuthenticate`). */
  externalSignIn?: ExternalSignIn | undefined;
  /** Exposes the pub/sub (tests wait for a subscription to be listening). */
  onPubSub?: ((pubsub: PubSub) => void) | undefined;
};

type GraphqlErrorBody = { errors: { message: string; extensions: Record<string, unknown> }[] };

const errorBody = (error: AppError, request: FastifyRequest): GraphqlErrorBody => {
  const problem = localizeProblem(toHttpProblem(error), requestLocale(request));
  const { retryAfterSeconds } = error.params;
  return {
    errors: [
      {
        message: error.message,
        extensions: {
          code: error.code,
          reason: error.reason,
          localizedMessage: problem.message,
          requestId: request.id,
          ...(typeof retryAfterSeconds === "number" ? { retryAfterSeconds } : {}),
        },
      },
    ],
  };
};

/**
 * A request yoga refused itself (a batch over the limit, a mutation over GET, a body it cannot read):
 * its errors carry yoga's code BAD_REQUEST, none of ours. Answered again in our shape: our reason and
 * message where we know yoga's text, else a generic bad request; the status is yoga's unless ours says.
 */
const yogaRefusal = (body: string, status: number): { status: number; error: AppError } | null => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const errors = (parsed as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return null;
  const first = errors[0] as { message?: unknown; extensions?: { code?: unknown; requestId?: unknown } };
  // Our own refusals carry the request id already.
  if (first.extensions?.requestId !== undefined) return null;
  const own = ownRefusal(typeof first.message === "string" ? first.message : "");
  const error = new AppError("VALIDATION_ERROR", {
    reason: own?.reason ?? "graphql.bad_request",
    message: own?.message ?? "validation error: the GraphQL request is not valid",
    ...(own?.params ? { params: own.params } : {}),
  });
  return { status: own?.status ?? (status >= 400 && status < 500 ? status : 400), error };
};

const subscriptionOverHttp = () =>
  new AppError("VALIDATION_ERROR", {
    reason: "graphql.subscription_over_http",
    message: `validation error: subscriptions are served over WebSocket (graphql-ws) at ${GRAPHQL_PATH}`,
  });

const callerKey = (caller: TenantContext | null, ip: string) =>
  caller ? `user:${caller.tenantId}:${caller.actor.userId}` : `ip:${ip}`;

/** Weak ETag of a body for one caller: equal bodies for two callers never share a tag. */
const etagOf = (caller: TenantContext | null, body: string) =>
  `W/"${createHash("sha256")
    .update(caller ? `${caller.tenantId}:${caller.actor.userId}` : "public")
    .update("\n")
    .update(body)
    .digest("base64url")
    .slice(0, 32)}"`;

const matchesEtag = (header: string | undefined, etag: string) =>
  (header ?? "").split(",").some((candidate) => {
    const value = candidate.trim();
    return value === etag || value === etag.slice(2) || `W/${value}` === etag;
  });

/** A single result with errors and no `data`: the request never executed. */
const isRequestError = (body: string): boolean => {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) && !("data" in parsed);
  } catch {
    return false;
  }
};

/**
 * Aborts when the reply's connection closes (or fails) before the answer is sent, as the signal of the
 * Fetch Request yoga's Node adapter builds.
 */
const replySignal = (reply: FastifyReply): AbortSignal => {
  const controller = new AbortController();
  const raw = reply.raw;
  const abort = () => {
    if (!controller.signal.aborted) controller.abort(raw.errored ?? undefined);
  };
  raw.once("error", abort);
  raw.once("close", abort);
  raw.once("finish", () => {
    raw.removeListener("close", abort);
    raw.removeListener("error", abort);
  });
  return controller.signal;
};

const normalizeOrigin = (value: string): string | null => {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
};

export const graphqlRoutes = async (app: App, options: GraphqlRoutesOptions) => {
  const { env, services } = options;
  const clock = options.clock ?? systemClock;

  const pubsub = env.redis.url ? await createRedisPubSub(env.redis.url, app.log) : createMemoryPubSub();
  // At start, though GraphQL itself loads on first use: the outbox marks events of a type with no
  // subscriber as dispatched, so the subscriptions' feeds must be listening from the first commit.
  const { events } = options;
  const unbridge = events ? bridgeGraphqlEvents(events, pubsub) : () => {};
  options.onPubSub?.(pubsub);

  let counter: WindowCounter;
  let counterRedis: Redis | undefined;
  if (env.redis.url) {
    counterRedis = await connectRedis(env.redis.url, {
      name: "hisob-graphql-rate-limit",
      log: app.log,
      purpose: "GraphQL rate limit",
    });
    counter = createRedisWindowCounter(counterRedis, "hisob:graphql-rate-limit:");
  } else {
    counter = createMemoryWindowCounter();
  }
  app.addHook("onClose", async () => {
    loaded?.stop();
    unbridge();
    await pubsub.close();
    await counterRedis?.quit().catch(() => counterRedis?.disconnect());
  });

  // Each caller's share of the database, and each organization's on top of it (several users of one
  // organization together, and its sockets' re-checks): service calls beyond these wait their turn.
  const callerGates = createWorkGates(env.graphql.concurrencyPerCaller);
  const tenantGates = createWorkGates(env.graphql.concurrencyPerTenant);
  const tenantGate = (tenantId: string) => tenantGates.gate(tenantId);
  const workGate = (caller: TenantContext | null, ip: string) => {
    const own = callerGates.gate(callerKey(caller, ip));
    return caller ? nestedGate(own, tenantGate(caller.tenantId)) : own;
  };

  const windowMs = env.graphql.rateLimitWindowSeconds * 1000;
  const maxOperations = env.graphql.rateLimit;

  /** Counts `operations` for the caller; sets the headers; false when over the limit. */
  const takeBudget = async (
    key: string,
    operations: number,
  ): Promise<{ allowed: boolean; headers: Record<string, string>; retryAfterSeconds?: number }> => {
    try {
      let hit = { count: 0, windowEndsAt: clock.now().getTime() + windowMs };
      for (let index = 0; index < operations; index += 1) {
        hit = await counter.hit(key, windowMs, clock.now().getTime(), maxOperations);
      }
      const resetSeconds = Math.ceil(hit.windowEndsAt / 1000);
      const headers: Record<string, string> = {
        [RATE_LIMIT_HEADERS.limit]: String(maxOperations),
        [RATE_LIMIT_HEADERS.remaining]: String(Math.max(0, maxOperations - hit.count)),
        [RATE_LIMIT_HEADERS.reset]: String(resetSeconds),
      };
      if (hit.count > maxOperations) {
        const retryAfterSeconds = Math.max(1, resetSeconds - Math.floor(clock.now().getTime() / 1000));
        headers[RATE_LIMIT_HEADERS.retryAfter] = String(retryAfterSeconds);
        return { allowed: false, headers, retryAfterSeconds };
      }
      return { allowed: true, headers };
    } catch (error) {
      // A counter store that is away must not take the API down with it.
      app.log.warn({ err: error }, "graphql rate limit: counter unavailable; request let through");
      return { allowed: true, headers: {} };
    }
  };

  const requestContext = (
    request: FastifyRequest,
    reply: FastifyReply | null,
    caller: TenantContext | null,
  ) => {
    const secure = isSecureRequest(request, env.oidc.issuerUrl);
    const context: GraphqlRequestContext = {
      caller,
      transport: reply ? "http" : "websocket",
      work: workGate(caller, request.ip),
      requestId: request.id,
      locale: caller?.locale ?? requestLocale(request),
      client: { ip: request.ip, userAgent: request.headers["user-agent"] ?? "" },
      sessionCookie: {
        set: (token, expiresAt) => {
          if (reply) setSessionCookie(reply, token, expiresAt, secure);
        },
        clear: () => {
          if (reply) clearSessionCookie(reply, secure);
        },
      },
      executed: { operations: new Set() },
    };
    const { externalSignIn } = options;
    if (externalSignIn) {
      context.externalSignIn = {
        provider: externalSignIn.name,
        start: async (next) => {
          // The flow cookie binds the sign-in to this browser; a WebSocket has no response to carry it.
          if (!reply) {
            throw new AppError("VALIDATION_ERROR", {
              reason: "auth.external_needs_http",
              message: "Start the external sign-in over HTTP: the browser must receive its cookie",
            });
          }
          const started = await externalSignIn.start({ next: safeNextPath(next), locale: context.locale });
          setFlowCookie(reply, started.cookie, secure);
          return { url: started.url, expiresAt: started.expiresAt };
        },
      };
    }
    return context;
  };

  const refuse = (reply: FastifyReply, request: FastifyRequest, status: number, error: AppError) =>
    reply
      .code(status)
      .header("cache-control", "no-store")
      .type("application/json; charset=utf-8")
      .send(JSON.stringify(errorBody(error, request)));

  const handleHttp = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header("vary", "Cookie, Authorization");
    // A bearer we cannot use is refused before execution; a stale cookie is just anonymous.
    if (request.callerUnavailable) {
      const error = databaseUnavailable();
      reply.header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS));
      return refuse(reply, request, 503, error);
    }
    const bearer = bearerOf(request.headers.authorization);
    if (bearer !== undefined && !request.ctx) {
      // A valid token of a third-party application is told apart from a dead or forged one (the auth hook asked).
      const refused = bearerRefusalProblem(request.bearerRefusal);
      return refuse(
        reply.header("www-authenticate", refused.wwwAuthenticate),
        request,
        401,
        new AppError("UNAUTHENTICATED", {
          reason: bearer === null ? "auth.unsupported_scheme" : refused.reason,
          message: refused.message,
        }),
      );
    }
    // CSRF: a POST must be JSON, which a cross-site form cannot send without a preflight.
    if (request.method === "POST" && !isNonSimple(request)) {
      return refuse(
        reply,
        request,
        415,
        new AppError("VALIDATION_ERROR", {
          reason: "request.unsupported_media_type",
          message: "validation error: send the request as application/json",
        }),
      );
    }
    // Subscriptions are served over WebSocket only: no SSE or multipart streams over plain HTTP.
    const accept = request.headers.accept ?? "";
    if (/text\/event-stream|multipart\/mixed/i.test(accept) && !/json|\*\/\*/i.test(accept)) {
      return refuse(reply, request, 406, subscriptionOverHttp());
    }
    // Yoga reads an empty batch as JSON it cannot parse: said plainly here.
    if (request.method === "POST" && Array.isArray(request.body) && request.body.length === 0) {
      return refuse(
        reply,
        request,
        400,
        new AppError("VALIDATION_ERROR", {
          reason: "graphql.batch_empty",
          message: "validation error: the batch is empty; send at least one operation",
        }),
      );
    }
    const { yoga, limits, jsonPost } = await loadEngine();
    const operations = request.method === "POST" && Array.isArray(request.body) ? request.body.length : 1;
    const budget = await takeBudget(
      callerKey(request.ctx, request.ip),
      Math.max(1, Math.min(operations, limits.maxBatch + 1)),
    );
    for (const [name, value] of Object.entries(budget.headers)) reply.header(name, value);
    if (!budget.allowed) {
      const params = budget.retryAfterSeconds ? { retryAfterSeconds: budget.retryAfterSeconds } : {};
      return refuse(
        reply,
        request,
        429,
        new AppError("RATE_LIMITED", { message: "Too many requests", params }),
      );
    }

    // A caller from the cache is confirmed by the operation's first transaction, and a query runs again
    // if it changed; a mutation confirms it before it runs; a batch, before any of it runs
    // (docs/decisions/0090-transports-at-baseline.md).
    const run = callerRunner(request, services.context);
    // One operation POSTed as JSON skips yoga's Fetch layer, answered exactly as yoga answers it
    // (json-post.ts; docs/decisions/0112-graphql-single-post-without-fetch.md).
    const params = jsonPost.params(request);
    let ran: { response: GraphqlAnswer; context: GraphqlRequestContext };
    try {
      ran = await run(!Array.isArray(request.body), async (caller, confirm) => {
        const context = requestContext(request, reply, caller);
        if (request.cachedCaller?.check?.verified === false) context.confirmCaller = confirm;
        // The request's signal aborts when its connection closes (yoga ties it to the reply; the JSON
        // path as yoga's adapter does): execution stops and queued service calls leave the queue, so no
        // request outlives its client.
        if (params) {
          const response = await jsonPost.answer(params, { graphql: context }, replySignal(reply));
          return { response, context };
        }
        const fetched = await yoga.handleNodeRequestAndResponse(request, reply, { graphql: context });
        const headers: [string, string][] = [];
        fetched.headers.forEach((value, name) => {
          headers.push([name, value]);
        });
        return { response: { status: fetched.status, headers, body: await fetched.text() }, context };
      });
    } catch (error) {
      // Confirming a cached caller needs the database too: unreachable, it is a 503 in our shape.
      if (!isDatabaseUnreachable(error)) throw error;
      // Unconfirmed, the caller is nobody: the answer speaks the language the request asks for.
      request.ctx = null;
      reply.header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS));
      return refuse(reply, request, 503, databaseUnavailable());
    }
    const { response, context } = ran;
    const single = !Array.isArray(request.body);
    if (response.status === 406 || (single && context.executed.operations.has("subscription"))) {
      // Refused before it subscribed (docs/decisions/0010-graphql-subscriptions-over-websocket-only.md).
      return refuse(reply, request, 406, subscriptionOverHttp());
    }
    reply.code(response.status);
    for (const [name, value] of response.headers) {
      if (name !== "content-length") reply.header(name, value);
    }
    const { body } = response;
    if (response.status !== 200) {
      const refusal = yogaRefusal(body, response.status);
      if (refusal) {
        reply.removeHeader("content-type");
        return refuse(reply, request, refusal.status, refusal.error);
      }
    }
    const isMutation = context.executed.operations.has("mutation");
    const hasErrors = body.includes('"errors"');
    // A request refused before execution (syntax, validation, limits: errors and no `data`) is a bad
    // request — or 401 when what it lacks is a signed-in caller (introspection in production); anything
    // that ran answers 200 with its errors, as the spec says.
    if (hasErrors && response.status === 200 && isRequestError(body)) {
      reply.code(body.includes('"code":"UNAUTHENTICATED"') ? 401 : 400);
    }
    if (isMutation || response.status !== 200 || hasErrors) {
      reply.header("cache-control", "no-store");
      return reply.send(body);
    }
    // A query answer: public only when it cannot depend on who asks — never for a signed-in caller,
    // never for the schema (docs/decisions/0014-graphql-introspection-caching-hsts.md).
    const shared = !request.ctx && !context.executed.introspection;
    reply.header("cache-control", shared ? "public, max-age=300" : "private, no-cache");
    const etag = etagOf(request.ctx, body);
    reply.header("etag", etag);
    if (matchesEtag(request.headers["if-none-match"], etag)) {
      reply.removeHeader("content-type");
      return reply.code(304).send();
    }
    return reply.send(body);
  };

  // --- WebSocket (graphql-ws) -----------------------------------------------------------------------------

  const allowedOrigins = new Set(
    [normalizeOrigin(env.oidc.issuerUrl), ...env.oidc.allowedOrigins].filter(
      (origin): origin is string => !!origin,
    ),
  );

  /**
   * A socket lives on the session that opened it: when that session ends (sign-out, deleteSession,
   * deactivation of the user or the organization), the socket is closed with 4401, so a revoked
   * credential stops receiving at once. And when its caller's access may have changed (roles, groups,
   * permissions; announced through the outbox on every instance), `onAccessChanged` runs: the engine
   * resolves the caller again and ends what it may no longer run.
   */
  const watchSocket = (
    socket: GraphqlSocket,
    caller: TenantContext,
    credential: "session" | "oidc",
    closed: AbortSignal,
    onAccessChanged: (change?: { tenantDeactivated?: boolean }) => void,
  ) => {
    const watch = async (topic: string, onPayload: (payload: Record<string, unknown>) => boolean) => {
      for await (const payload of pubsub.subscribe(topic, closed)) {
        if (onPayload((payload ?? {}) as Record<string, unknown>)) return;
      }
      if (!closed.aborted) throw new Error(`The watch of ${topic} ended`);
    };
    // A socket that can no longer hear what changes its caller must not run on unchecked: closed with
    // 1011, its client connects again (graphql-ws retries on it) and resolves its caller afresh.
    const failed = (error: unknown) => {
      if (closed.aborted) return;
      app.log.warn({ err: error }, "graphql: socket watch failed; closing the socket");
      socket.close(CLOSE_TRY_AGAIN, "Try again");
    };
    const sessionId = caller.actor.sessionId;
    if (sessionId) {
      watch(sessionDeletedTopic(caller.tenantId, caller.actor.userId), (payload) => {
        if (payload.sessionId !== sessionId) return false;
        // On the next turn: a sessionDeleted subscription on this socket, which heard the same event,
        // delivers it first, so the client learns why its socket closes.
        const reason =
          payload.reason === "organization_deactivated" ? CLOSE_REASON_TENANT_DEACTIVATED : "Session ended";
        setImmediate(() => socket.close(CLOSE_UNAUTHORIZED, reason));
        return true;
      }).catch(failed);
    }
    watch(accessChangedTopic(caller.tenantId), (payload) => {
      const userIds = payload.userIds;
      if (!Array.isArray(userIds) || userIds.includes(caller.actor.userId))
        onAccessChanged({ tenantDeactivated: payload.tenantDeactivated === true });
      return false;
    }).catch(failed);
    // An OIDC client deactivated (or no longer first-party) is no organization's: every socket on an OIDC
    // access token hears it and resolves its caller again (rare: an administrator's action).
    if (credential === "oidc") {
      watch(OIDC_CLIENTS_TOPIC, () => {
        onAccessChanged();
        return false;
      }).catch(failed);
    }
  };

  /** GraphQL itself (schema, yoga, graphql-ws), imported and built on the first request that needs it. */
  let engine: Promise<GraphqlEngine> | undefined;
  let loaded: GraphqlEngine | undefined;
  const loadEngine = (): Promise<GraphqlEngine> => {
    engine ??= import("./graphql-engine")
      .then(({ createGraphqlEngine }) =>
        createGraphqlEngine({
          services,
          pubsub,
          endpoint: GRAPHQL_PATH,
          log: app.log,
          clock,
          limits: options.limits,
          extraModules: options.extraModules,
          introspection: env.graphql.introspection,
          callerKey,
          takeBudget,
          tenantGate,
          requestContext: (request, caller) => requestContext(request, null, caller),
          watchSocket,
          socketRecheckMs: env.graphql.socketRecheckMs,
        }),
      )
      .then((built) => {
        loaded = built;
        return built;
      })
      .catch((error: unknown) => {
        engine = undefined; // the next request tries again
        throw error;
      });
    return engine;
  };

  await app.register(fastifyWebsocket, {
    options: { maxPayload: GRAPHQL_BODY_LIMIT },
    // On shutdown every socket is told the server is going away (1001), not closed without a code
    // (1005, the plugin's default): graphql-ws clients reconnect, to another instance.
    preClose: function (this: FastifyInstance, done) {
      for (const client of this.websocketServer.clients)
        client.close(CLOSE_GOING_AWAY, "Server shutting down");
      // Not waiting for each client's reply: a client that never answers must not hold the shutdown.
      this.websocketServer.close();
      done();
    },
  });

  app.route({
    method: "GET",
    url: GRAPHQL_PATH,
    config: { public: true, ownUnavailable: true, ownCallerCheck: true },
    // GraphQL documents itself (introspection, schema.graphql); it is not part of the REST reference.
    schema: { hide: true },
    // A browser page of another site must not open a socket with our user's cookie (CSWSH).
    preValidation: async (request, reply) => {
      if (!request.ws) return;
      const origin = request.headers.origin;
      if (origin !== undefined && !allowedOrigins.has(normalizeOrigin(origin) ?? "")) {
        return refuse(
          reply,
          request,
          403,
          new AppError("FORBIDDEN", { reason: "graphql.origin_not_allowed" }),
        );
      }
      // Before the upgrade completes, so the socket's first message finds graphql-ws listening.
      await loadEngine();
    },
    handler: handleHttp,
    // graphql-ws's handler reads the WebSocket server from `this` (the Fastify instance).
    wsHandler: function (this: FastifyInstance, socket, request) {
      if (!loaded) {
        socket.close(CLOSE_TRY_AGAIN, "GraphQL is not loaded");
        return;
      }
      loaded.wsHandler.call(this as never, socket, request);
    },
  });
  app.route({
    method: "POST",
    url: GRAPHQL_PATH,
    config: { public: true, ownUnavailable: true, ownCallerCheck: true },
    schema: { hide: true },
    bodyLimit: GRAPHQL_BODY_LIMIT,
    handler: handleHttp,
  });

  if (env.graphql.graphiql) {
    graphiqlRoutes(app, { path: GRAPHIQL_PATH, endpoint: GRAPHQL_PATH, title: "Hisob GraphQL" });
  }
};
