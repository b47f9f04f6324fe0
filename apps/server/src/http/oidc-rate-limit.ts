import { createHash } from "node:crypto";
import fastifyRateLimit, { type FastifyRateLimitStore } from "@fastify/rate-limit";
import { clientNetwork } from "@hisob/core";
import { type Clock, parseAuthorization, systemClock } from "@hisob/kernel";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Redis } from "ioredis";
import type { Env } from "../env";
import { connectRedis } from "../redis";

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
const DEFAULT_MAX_MEMORY_KEYS = 100_000;
/** Longest client_id a client may have (packages/oidc clients); longer ones never authenticate. */
const MAX_CLIENT_ID_LENGTH = 100;

// ---------------------------------------------------------------------------------------------------------
// Window counters

/** One counted request: the count in its key's window, and when that window ends (ms since epoch). */
export type WindowHit = { count: number; windowEndsAt: number };

/**
 * Fixed windows per key: the first request of a key opens a window of `windowMs` (starting at the whole
 * second); requests inside it are counted; the first request at or after its end opens a new one.
 *
 * With `limit`, requests refused past it count too (docs/decisions/0004-api-rate-limits.md): a window
 * opened within one window of the previous one's end starts with that window's requests beyond the
 * limit already spent (at most the limit), so a client that keeps hammering after its 429 stays
 * limited, and one that stopped gets its next window less what it sent while refused.
 */
export type WindowCounter = {
  hit(key: string, windowMs: number, nowMs: number, limit?: number): Promise<WindowHit>;
};

const windowStartOf = (nowMs: number) => Math.floor(nowMs / 1000) * 1000;

/** What a new window starts with: the refused requests of the window just before it. */
const carriedOver = (
  previous: { start: number; count: number },
  windowMs: number,
  nowMs: number,
  limit?: number,
) =>
  limit !== undefined && limit > 0 && nowMs < previous.start + 2 * windowMs
    ? Math.min(limit, Math.max(0, previous.count - limit))
    : 0;

/** Process memory; bounded (least recently used keys go first). */
export const createMemoryWindowCounter = (maxKeys = DEFAULT_MAX_MEMORY_KEYS): WindowCounter => {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit: async (key, windowMs, nowMs, limit) => {
      let entry = windows.get(key);
      if (entry === undefined) {
        entry = { start: windowStartOf(nowMs), count: 0 };
      } else if (entry.start + windowMs <= nowMs) {
        entry = { start: windowStartOf(nowMs), count: carriedOver(entry, windowMs, nowMs, limit) };
      }
      entry.count += 1;
      // Re-inserting keeps the Map in least-recently-used order.
      windows.delete(key);
      windows.set(key, entry);
      if (windows.size > maxKeys) {
        const oldest = windows.keys().next();
        if (!oldest.done) windows.delete(oldest.value);
      }
      return { count: entry.count, windowEndsAt: entry.start + windowMs };
    },
  };
};

/*
 * One round trip, atomic. The window maths use the caller's clock (ARGV), never Redis server time;
 * the key's TTL only collects it after the window and the one after it (which may inherit its
 * refused requests), plus a minute's slack for clock differences. ARGV[5]: the limit, 0 for none.
 */
const REDIS_HIT_SCRIPT = `
local start = tonumber(redis.call('HGET', KEYS[1], 'start'))
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[3])
local limit = tonumber(ARGV[5])
if start == nil or start + window <= now then
  local count = 1
  if start ~= nil and limit > 0 and now < start + 2 * window then
    local refused = tonumber(redis.call('HGET', KEYS[1], 'count')) - limit
    if refused > limit then refused = limit end
    if refused > 0 then count = count + refused end
  end
  redis.call('HSET', KEYS[1], 'start', ARGV[2], 'count', count)
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return {count, ARGV[2]}
end
local count = redis.call('HINCRBY', KEYS[1], 'count', 1)
return {count, redis.call('HGET', KEYS[1], 'start')}
`;
const REDIS_HIT_SCRIPT_SHA = createHash("sha1").update(REDIS_HIT_SCRIPT).digest("hex");
const REDIS_TTL_SLACK_MS = 60_000;

/** Counters in Redis under `prefix`, shared by every instance. */
export const createRedisWindowCounter = (redis: Redis, prefix: string): WindowCounter => {
  const run = async (args: (string | number)[]): Promise<unknown> => {
    try {
      return await redis.evalsha(REDIS_HIT_SCRIPT_SHA, 1, ...args);
    } catch (error) {
      if (!String((error as Error).message).startsWith("NOSCRIPT")) throw error;
      return await redis.eval(REDIS_HIT_SCRIPT, 1, ...args);
    }
  };
  return {
    hit: async (key, windowMs, nowMs, limit) => {
      const reply = await run([
        `${prefix}${key}`,
        nowMs,
        windowStartOf(nowMs),
        windowMs,
        2 * windowMs + REDIS_TTL_SLACK_MS,
        limit ?? 0,
      ]);
      const [count, start] = Array.isArray(reply) ? reply.map(Number) : [];
      if (count === undefined || start === undefined || !Number.isFinite(count) || !Number.isFinite(start)) {
        throw new Error("Unexpected reply from the rate-limit script");
      }
      return { count, windowEndsAt: start + windowMs };
    },
  };
};

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

export const RATE_LIMIT_HEADERS = {
  limit: "x-ratelimit-limit",
  remaining: "x-ratelimit-remaining",
  reset: "x-ratelimit-reset",
  retryAfter: "retry-after",
} as const;

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
