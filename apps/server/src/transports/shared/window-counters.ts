import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

/*
 * Fixed-window request counters, in this process or in Redis (shared by every instance), on an
 * injected clock. Every rate limit of ours counts with them: the OpenID provider's
 * (transports/oidc/oidc-rate-limit.ts), the REST and tRPC per-caller limit
 * (transports/shared/api-rate-limit.ts) and GraphQL's (transports/graphql/graphql.routes.ts).
 */

const DEFAULT_MAX_MEMORY_KEYS = 100_000;

/** One counted request: the count in its key's window, and when that window ends (ms since epoch). */
export type WindowHit = { count: number; windowEndsAt: number };

/**
 * Fixed windows per key: the first request of a key opens a window of `windowMs` (starting at the whole
 * second); requests inside it are counted; the first request at or after its end opens a new one.
 */
export type WindowCounter = {
  hit(key: string, windowMs: number, nowMs: number): Promise<WindowHit>;
};

const windowStartOf = (nowMs: number) => Math.floor(nowMs / 1000) * 1000;

/** Process memory; bounded (least recently used keys go first). */
export const createMemoryWindowCounter = (maxKeys = DEFAULT_MAX_MEMORY_KEYS): WindowCounter => {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit: async (key, windowMs, nowMs) => {
      let entry = windows.get(key);
      if (entry === undefined || entry.start + windowMs <= nowMs) {
        entry = { start: windowStartOf(nowMs), count: 0 };
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
 * the key's TTL only collects it after the window (plus a minute's slack for clock differences).
 */
const REDIS_HIT_SCRIPT = `
local start = tonumber(redis.call('HGET', KEYS[1], 'start'))
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[3])
if start == nil or start + window <= now then
  redis.call('HSET', KEYS[1], 'start', ARGV[2], 'count', 1)
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return {1, ARGV[2]}
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
    hit: async (key, windowMs, nowMs) => {
      const reply = await run([
        `${prefix}${key}`,
        nowMs,
        windowStartOf(nowMs),
        windowMs,
        windowMs + REDIS_TTL_SLACK_MS,
      ]);
      const [count, start] = Array.isArray(reply) ? reply.map(Number) : [];
      if (count === undefined || start === undefined || !Number.isFinite(count) || !Number.isFinite(start)) {
        throw new Error("Unexpected reply from the rate-limit script");
      }
      return { count, windowEndsAt: start + windowMs };
    },
  };
};

/** The response headers every rate limit of ours sends. */
export const RATE_LIMIT_HEADERS = {
  limit: "x-ratelimit-limit",
  remaining: "x-ratelimit-remaining",
  reset: "x-ratelimit-reset",
  retryAfter: "retry-after",
} as const;
