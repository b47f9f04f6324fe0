import { createMemoryThrottleStore, type ThrottleStore } from "@hisob/core";
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
  options: { name: string; log: RedisLog; purpose: string },
): Promise<Redis> => {
  // Loaded only when REDIS_URL is set: a server without Redis never carries ioredis's code (alone,
  // importing it adds 21 MiB RSS after a full GC; issue 16.4).
  const { Redis } = await import("ioredis");
  const redis = new Redis(url, {
    lazyConnect: true,
    connectionName: options.name,
    connectTimeout: 5_000,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
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
 * One atomic step per reservation: a sorted set of stamps scored by time. The window maths use the
 * caller's clock (ARGV), never Redis server time; the key expires with its window.
 */
const TAKE_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[2]) - tonumber(ARGV[3]))
local count = redis.call('ZCARD', KEYS[1])
local max = tonumber(ARGV[4])
if count >= max then
  local oldest = redis.call('ZRANGE', KEYS[1], count - max, count - max, 'WITHSCORES')
  local wait = tonumber(oldest[2]) + tonumber(ARGV[3]) - tonumber(ARGV[2])
  if wait < 1 then wait = 1 end
  return wait
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 0
`;

type ThrottleRedis = Redis & {
  hisobThrottleTake(key: string, stamp: string, now: number, windowMs: number, max: number): Promise<number>;
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
  redis.defineCommand("hisobThrottleTake", { numberOfKeys: 1, lua: TAKE_SCRIPT });
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
  return {
    take: (key, stamp, now, windowMs, max) =>
      orFallback(
        async () => Number(await client.hisobThrottleTake(`${prefix}${key}`, stamp, now, windowMs, max)),
        () => fallback.take(key, stamp, now, windowMs, max),
      ),
    release: (key, stamp) =>
      orFallback(
        async () => {
          await redis.zrem(`${prefix}${key}`, stamp);
        },
        () => fallback.release(key, stamp),
      ),
    clear: (key) =>
      orFallback(
        async () => {
          await redis.del(`${prefix}${key}`);
        },
        () => fallback.clear(key),
      ),
  };
};
