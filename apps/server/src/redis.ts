import { createMemoryThrottleStore, type TakeResult, type ThrottleStore } from "@hisob/core";
import type { Redis } from "ioredis";

/** Where Redis problems are reported (Fastify's logger, or the console before it exists). */
export type RedisLog = { warn(details: object, message: string): void };

const ERROR_LOG_INTERVAL_MS = 60_000;

/**
 * A connected client for REDIS_URL. Commands fail fast while Redis is away (no offline queue, one
 * retry), so a caller can fall back instead of hanging; connection errors are logged once a minute.
 */
export const connectRedis = async (
  url: string,
  options: {
    name: string;
    log: RedisLog;
    purpose: string;
    /** Subscribe again after a reconnect to the channels it had (ioredis's default); false: the owner does. */
    resubscribe?: boolean;
  },
): Promise<Redis> => {
  // Loaded only when REDIS_URL is set: a server without Redis never carries ioredis's code (alone,
  // importing it adds 21 MiB RSS after a full GC; bench/HISTORY.md).
  const { Redis } = await import("ioredis");
  const redis = new Redis(url, {
    lazyConnect: true,
    connectionName: options.name,
    connectTimeout: 5_000,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    autoResubscribe: options.resubscribe ?? true,
  });
  // ioredis reconnects by itself; without a listener it would print every failed attempt to stderr.
  let lastLogged = Number.NEGATIVE_INFINITY;
  redis.on("error", (error: Error) => {
    if (Date.now() - lastLogged < ERROR_LOG_INTERVAL_MS) return;
    lastLogged = Date.now();
    options.log.warn({ err: error }, `${options.purpose}: Redis connection error`);
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`${options.purpose}: cannot connect to REDIS_URL: ${(error as Error).message}`);
  }
  return redis;
};

/*
 * One atomic step per reservation. Two sorted sets per key: kept stamps scored by when they were
 * taken, pending ones by when they were taken too (a pending stamp older than the lease counts as
 * kept). The window maths use the caller's clock (ARGV), never Redis server time; the keys expire
 * with their window. Answers: 0 reserved, -1 busy (pending ones fill the budget), else the
 * milliseconds until the oldest kept stamp that blocks leaves the window.
 */
const TAKE_SCRIPT = `
local now = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local max = tonumber(ARGV[4])
local lease = tonumber(ARGV[5])
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - lease, 'WITHSCORES')
for i = 1, #expired, 2 do
  redis.call('ZADD', KEYS[1], expired[i + 1], expired[i])
end
if #expired > 0 then redis.call('PEXPIRE', KEYS[1], window) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - lease)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local kept = redis.call('ZCARD', KEYS[1])
if kept >= max then
  local oldest = redis.call('ZRANGE', KEYS[1], kept - max, kept - max, 'WITHSCORES')
  local wait = tonumber(oldest[2]) + window - now
  if wait < 1 then wait = 1 end
  return wait
end
if kept + redis.call('ZCARD', KEYS[2]) >= max then
  return -1
end
redis.call('ZADD', KEYS[2], now, ARGV[1])
redis.call('PEXPIRE', KEYS[2], math.max(window, lease))
return 0
`;

/** Settles a pending stamp as kept, at the time it was taken. */
const KEEP_SCRIPT = `
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 0
`;

type ThrottleRedis = Redis & {
  hisobThrottleTake(
    kept: string,
    pending: string,
    stamp: string,
    now: number,
    windowMs: number,
    max: number,
    leaseMs: number,
  ): Promise<number>;
  hisobThrottleKeep(
    kept: string,
    pending: string,
    stamp: string,
    takenAt: number,
    ttlMs: number,
  ): Promise<number>;
};

/**
 * Attempt budgets shared by every instance. While Redis cannot answer, this instance counts in its
 * own memory (each instance still enforces the limit) rather than refusing every sign-in.
 */
export const createRedisThrottleStore = (
  redis: Redis,
  options: { prefix?: string; log: RedisLog },
): ThrottleStore => {
  const prefix = options.prefix ?? "hisob:attempts:";
  redis.defineCommand("hisobThrottleTake", { numberOfKeys: 2, lua: TAKE_SCRIPT });
  redis.defineCommand("hisobThrottleKeep", { numberOfKeys: 2, lua: KEEP_SCRIPT });
  const client = redis as ThrottleRedis;
  const fallback = createMemoryThrottleStore();
  const orFallback = async <T>(remote: () => Promise<T>, local: () => Promise<T>): Promise<T> => {
    try {
      return await remote();
    } catch (error) {
      options.log.warn({ err: error }, "attempt budgets: Redis unavailable, counting in memory");
      return local();
    }
  };
  const keys = (key: string) => [`${prefix}${key}`, `${prefix}${key}:pending`] as const;
  return {
    take: (key, stamp, now, limits) =>
      orFallback(
        async (): Promise<TakeResult> => {
          const [kept, pending] = keys(key);
          const answer = Number(
            await client.hisobThrottleTake(
              kept,
              pending,
              stamp,
              now,
              limits.windowMs,
              limits.max,
              limits.leaseMs,
            ),
          );
          if (answer === 0) return { granted: true };
          if (answer < 0) return { granted: false, busy: true };
          return { granted: false, busy: false, waitMs: answer };
        },
        () => fallback.take(key, stamp, now, limits),
      ),
    keep: (key, stamp, takenAt, windowMs) =>
      orFallback(
        async () => {
          const [kept, pending] = keys(key);
          await client.hisobThrottleKeep(kept, pending, stamp, takenAt, windowMs);
        },
        () => fallback.keep(key, stamp, takenAt, windowMs),
      ),
    release: (key, stamp) =>
      orFallback(
        async () => {
          // From both sets: its lease may have run out (counted as kept) before the work ended.
          const [kept, pending] = keys(key);
          await redis.multi().zrem(pending, stamp).zrem(kept, stamp).exec();
        },
        () => fallback.release(key, stamp),
      ),
    clear: (key) =>
      orFallback(
        async () => {
          await redis.del(...keys(key));
        },
        () => fallback.clear(key),
      ),
    // The flag holds its end on the caller's clock (the window maths' clock); Redis's TTL collects it.
    remember: (key, now, ttlMs) =>
      orFallback(
        async () => {
          await redis.set(`${prefix}${key}`, String(now + ttlMs), "PX", ttlMs);
        },
        () => fallback.remember(key, now, ttlMs),
      ),
    isRemembered: (key, now) =>
      orFallback(
        async () => Number((await redis.get(`${prefix}${key}`)) ?? 0) > now,
        () => fallback.isRemembered(key, now),
      ),
  };
};
