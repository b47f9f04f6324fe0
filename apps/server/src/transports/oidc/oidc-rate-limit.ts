import { createHash } from "node:crypto";
import fastifyRateLimit, { type FastifyRateLimitStore } from "@fastify/rate-limit";
import { clientNetwork } from "@hisob/core";
import { type Clock, parseAuthorization, systemClock } from "@hisob/kernel";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Env } from "../../env";
import { connectRedis } from "../../redis";
import {
  createMemoryWindowCounter,
  createRedisWindowCounter,
  RATE_LIMIT_HEADERS,
  type WindowCounter,
} from "../shared/window-counters";

/*
 * Rate limits of the OpenID provider (spec "Limits"): authorize per IP, token per client (per client
 * and IP for a public client), userinfo per access token, keys per IP; fixed windows of
 * OIDC_RATE_LIMIT_WINDOW_SECONDS (15 minutes). Register inside the OIDC routes plugin:
 *
 *   await app.register(oidcRateLimit, { limits: env.rateLimit, redisUrl: env.redis.url, clock });
 *
 * A route names its bucket in its configuration, where it is declared (`config: { oidcRateLimit:
 * "token" }`). Discovery, revocation, introspection and logout name none: they are not limited (the
 * spec shows no limit for them).
 *
 * @fastify/rate-limit runs the counting (`createRateLimit`: key → store → remaining/exceeded), on
 * stores of ours that read time from the injected Clock (its own stores use Date.now and Redis server
 * time, so tests could not drive the window). We write the response ourselves: X-RateLimit-Reset is
 * the Unix time of the window's end (the plugin would send seconds remaining), and the 429 is sent
 * from our hook in the OAuth wire format, not thrown into the routes' error handler (which turns
 * every 4xx it did not raise into invalid_request).
 */

export type RateLimitBucket = "authorize" | "token" | "userinfo" | "keys";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The window this route's requests count in (the `oidcRateLimit` plugin in its scope). */
    oidcRateLimit?: RateLimitBucket;
  }
}

export type OidcRateLimitOptions = {
  /** `env.rateLimit`: enabled, window and the per-bucket maxima. */
  limits: Env["rateLimit"];
  /** `env.redis.url`: counters in Redis when set (shared by every instance), else in this process. */
  redisUrl?: string | undefined;
  /** Prefix of the counter keys in Redis. */
  redisKeyPrefix?: string;
  /** Time source of the windows (tests pass a manual clock). */
  clock?: Clock;
  /** Most keys the in-memory store keeps (least recently used dropped first). */
  maxMemoryKeys?: number;
};

export const DEFAULT_REDIS_KEY_PREFIX = "hisob:oidc-rate-limit:";
/** Longest client_id a client may have (packages/oidc clients); longer ones never authenticate. */
const MAX_CLIENT_ID_LENGTH = 100;

// ---------------------------------------------------------------------------------------------------------
// The @fastify/rate-limit store

/** A @fastify/rate-limit store over a WindowCounter, on our clock. */
const storeClass = (counter: WindowCounter, clock: Clock) =>
  class ClockedStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const now = clock.now().getTime();
      counter.hit(key, timeWindow, now).then(
        (hit) => callback(null, { current: hit.count, ttl: hit.windowEndsAt - now }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    // Bucket names are part of every key, so one store serves all of them.
    child(): FastifyRateLimitStore {
      return this;
    }
  };

// ---------------------------------------------------------------------------------------------------------
// Keys

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

/** IPv4 as is, IPv6 by /64 (one host usually owns the whole prefix): the one clientNetwork of every budget. */
const ipOf = (request: FastifyRequest) => clientNetwork(request.ip);

const stringField = (body: unknown, name: string): string | undefined => {
  if (typeof body !== "object" || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
};

/**
 * The token endpoint's key, without a database lookup: the client as it presents itself (Basic header
 * first, else the form's client_id). A client presenting a secret counts per client; one presenting
 * none is a public client (the desktop app): per client and IP, so one installation cannot exhaust
 * everybody's budget. Requests naming no usable client count per IP.
 */
const tokenKey = (request: FastifyRequest): string => {
  const ip = ipOf(request);
  const authorization = parseAuthorization(request.headers.authorization);
  const basic = authorization.scheme === "basic" ? authorization : undefined;
  const clientId = basic?.clientId ?? stringField(request.body, "client_id");
  const secret = basic ? basic.secret : stringField(request.body, "client_secret");
  if (!clientId || clientId.length > MAX_CLIENT_ID_LENGTH) return `token:ip:${ip}`;
  const client = `token:client:${encodeURIComponent(clientId)}`;
  return secret ? client : `${client}:ip:${ip}`;
};

/**
 * Userinfo: per access token (hashed: keys may be logged or stored in Redis); no usable token → per
 * IP (a malformed header cannot open a fresh window each time).
 */
const userinfoKey = (request: FastifyRequest): string => {
  const authorization = parseAuthorization(request.headers.authorization);
  const bearer = authorization.scheme === "bearer" ? authorization.token : undefined;
  const token = bearer ?? stringField(request.body, "access_token");
  return token ? `userinfo:token:${sha256(token)}` : `userinfo:ip:${ipOf(request)}`;
};

/** The counter key of a request in `bucket`. */
export const rateLimitKey = (bucket: RateLimitBucket, request: FastifyRequest): string => {
  switch (bucket) {
    case "authorize":
      return `authorize:ip:${ipOf(request)}`;
    case "keys":
      return `keys:ip:${ipOf(request)}`;
    case "token":
      return tokenKey(request);
    case "userinfo":
      return userinfoKey(request);
  }
};

// ---------------------------------------------------------------------------------------------------------
// The plugin

const ERROR_LOG_INTERVAL_MS = 60_000;

const plugin = async (app: FastifyInstance, options: OidcRateLimitOptions) => {
  const { limits } = options;
  if (!limits.enabled) return;
  if (app.hasDecorator("createRateLimit")) {
    // Its createRateLimit would count on that registration's store, not ours.
    throw new Error(
      "oidcRateLimit: @fastify/rate-limit is already registered in an enclosing scope; register that one with global: false inside its own plugin",
    );
  }
  const clock = options.clock ?? systemClock;

  let counter: WindowCounter;
  if (options.redisUrl) {
    const redis = await connectRedis(options.redisUrl, {
      name: "hisob-oidc-rate-limit",
      log: app.log,
      purpose: "OIDC rate limiting",
    });
    app.addHook("onClose", async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
    counter = createRedisWindowCounter(redis, options.redisKeyPrefix ?? DEFAULT_REDIS_KEY_PREFIX);
  } else {
    counter = createMemoryWindowCounter(options.maxMemoryKeys);
  }

  await app.register(fastifyRateLimit, { global: false, store: storeClass(counter, clock) });

  const timeWindow = limits.windowSeconds * 1000;
  const limiter = (bucket: RateLimitBucket) =>
    app.createRateLimit({
      max: limits[bucket],
      timeWindow,
      keyGenerator: (request) => rateLimitKey(bucket, request),
    });
  const limiters: Record<RateLimitBucket, ReturnType<typeof limiter>> = {
    authorize: limiter("authorize"),
    token: limiter("token"),
    userinfo: limiter("userinfo"),
    keys: limiter("keys"),
  };

  let lastStoreErrorLog = Number.NEGATIVE_INFINITY;

  // preValidation: the body is parsed (the token key reads client_id from the form), and the CORS
  // headers (onRequest) are already on the reply, so a browser can read a 429 too.
  app.addHook("preValidation", async (request: FastifyRequest, reply: FastifyReply) => {
    const bucket = request.routeOptions.config?.oidcRateLimit;
    if (bucket === undefined) return;

    let result: Awaited<ReturnType<(typeof limiters)[RateLimitBucket]>>;
    try {
      result = await limiters[bucket](request);
    } catch (error) {
      // Fail open: an unreachable counter store must not take the identity provider down with it.
      const now = clock.now().getTime();
      if (now - lastStoreErrorLog >= ERROR_LOG_INTERVAL_MS) {
        lastStoreErrorLog = now;
        request.log.error({ err: error }, "oidc rate limit: counter store failed; requests are not limited");
      }
      return;
    }
    if (result.isAllowed) return;

    // The store measured ttl from its reading of the clock; window ends fall on whole seconds, so
    // rounding absorbs the few milliseconds between that reading and this one.
    const resetAt = Math.round((clock.now().getTime() + result.ttl) / 1000);
    reply.header(RATE_LIMIT_HEADERS.limit, result.max);
    reply.header(RATE_LIMIT_HEADERS.remaining, result.remaining);
    reply.header(RATE_LIMIT_HEADERS.reset, resetAt);
    if (!result.isExceeded) return;

    const retryAfter = Math.max(1, Math.ceil(result.ttl / 1000));
    return reply
      .code(429)
      .header(RATE_LIMIT_HEADERS.retryAfter, retryAfter)
      .header("cache-control", "no-store")
      .header("pragma", "no-cache")
      .type("application/json; charset=utf-8")
      .send({
        error: "temporarily_unavailable",
        error_description: `Too many requests; retry after ${retryAfter} seconds`,
      });
  });
};

/** Fastify plugin (not encapsulated: its hook applies to the routes of the plugin registering it). */
export const oidcRateLimit = fp(plugin, { name: "hisob-oidc-rate-limit", fastify: "5.x" });
