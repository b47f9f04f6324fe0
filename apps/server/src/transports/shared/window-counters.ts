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

/** The response headers every rate limit of ours sends. */
export const RATE_LIMIT_HEADERS = {
  limit: "x-ratelimit-limit",
  remaining: "x-ratelimit-remaining",
  reset: "x-ratelimit-reset",
  retryAfter: "retry-after",
} as const;
