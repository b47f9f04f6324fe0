import type { Clock } from "@hisob/kernel";

/**
 * Counts failed logins per key (email + IP) in a sliding window. After `maxFailures` failures within
 * `windowMs` the key is blocked until the oldest failure leaves the window. Written here rather than
 * taken from a rate-limit library because it counts failures only and must run on an injected clock
 * (tests drive the window without sleeping). Memory store now; the store is an interface so a Redis
 * one can back several instances.
 */
export type ThrottleStore = {
  get(key: string): Promise<number[]>;
  set(key: string, failures: number[], ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
};

export const createMemoryThrottleStore = (): ThrottleStore => {
  const entries = new Map<string, { failures: number[]; expiresAt: number }>();
  return {
    get: async (key) => {
      const entry = entries.get(key);
      return entry ? entry.failures : [];
    },
    set: async (key, failures, ttlMs) => {
      entries.set(key, { failures, expiresAt: Date.now() + ttlMs });
      // Bounded memory: drop expired keys now and then.
      if (entries.size > 10_000) {
        const now = Date.now();
        for (const [k, v] of entries) if (v.expiresAt < now) entries.delete(k);
      }
    },
    delete: async (key) => {
      entries.delete(key);
    },
  };
};

export type LoginThrottle = {
  /** Seconds until the key may try again, or 0 when it may try now. */
  retryAfterSeconds(key: string): Promise<number>;
  recordFailure(key: string): Promise<void>;
  reset(key: string): Promise<void>;
};

export const createLoginThrottle = (options: {
  clock: Clock;
  store?: ThrottleStore;
  maxFailures?: number;
  windowMs?: number;
}): LoginThrottle => {
  const store = options.store ?? createMemoryThrottleStore();
  const maxFailures = options.maxFailures ?? 5;
  const windowMs = options.windowMs ?? 15 * 60_000;
  const recent = async (key: string) => {
    const now = options.clock.now().getTime();
    return { now, failures: (await store.get(key)).filter((at) => at > now - windowMs) };
  };
  return {
    retryAfterSeconds: async (key) => {
      const { now, failures } = await recent(key);
      if (failures.length < maxFailures) return 0;
      const oldestThatBlocks = failures[failures.length - maxFailures] ?? now;
      return Math.max(1, Math.ceil((oldestThatBlocks + windowMs - now) / 1000));
    },
    recordFailure: async (key) => {
      const { now, failures } = await recent(key);
      await store.set(key, [...failures, now].slice(-maxFailures), windowMs);
    },
    reset: (key) => store.delete(key),
  };
};
