import { randomUUID } from "node:crypto";
import type { Clock } from "@hisob/kernel";

/*
 * A budget of attempts per key (email + IP for sign-in, a user for current-password checks, a
 * caller for email-uniqueness answers) in a sliding window. An attempt is reserved *before* the
 * work it guards (a password verification, a uniqueness check) in one atomic step, so parallel
 * guesses cannot all pass a check made before any of them is counted. The guarded work then
 * keeps the reservation (a failure), releases it (nothing learnt) or clears the key (success).
 *
 * Written here rather than taken from a rate-limit library: it reserves before the work and
 * releases after, and it runs on an injected clock (tests drive the window without sleeping).
 * The store is an interface: in memory for one process, Redis for several instances.
 */

export type ThrottleStore = {
  /**
   * Atomically: forgets stamps of `key` older than `now - windowMs`; if fewer than `max` remain,
   * records `stamp` at `now` and answers 0; otherwise answers the milliseconds until the oldest
   * stamp that blocks leaves the window.
   */
  take(key: string, stamp: string, now: number, windowMs: number, max: number): Promise<number>;
  /** Forgets one stamp (a reservation whose work taught the caller nothing). */
  release(key: string, stamp: string): Promise<void>;
  /** Forgets every stamp of `key`. */
  clear(key: string): Promise<void>;
};

const MAX_MEMORY_KEYS = 10_000;

export const createMemoryThrottleStore = (): ThrottleStore => {
  const entries = new Map<string, { stamps: Array<{ stamp: string; at: number }>; expiresAt: number }>();
  const sweep = (now: number) => {
    if (entries.size <= MAX_MEMORY_KEYS) return;
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
  };
  return {
    // No await inside: one call runs to completion before another starts, which makes it atomic.
    take: async (key, stamp, now, windowMs, max) => {
      const stamps = (entries.get(key)?.stamps ?? []).filter((entry) => entry.at > now - windowMs);
      if (stamps.length >= max) {
        entries.set(key, { stamps, expiresAt: now + windowMs });
        const oldestThatBlocks = stamps[stamps.length - max]?.at ?? now;
        return Math.max(1, oldestThatBlocks + windowMs - now);
      }
      stamps.push({ stamp, at: now });
      entries.set(key, { stamps, expiresAt: now + windowMs });
      sweep(now);
      return 0;
    },
    release: async (key, stamp) => {
      const entry = entries.get(key);
      if (entry) entry.stamps = entry.stamps.filter((item) => item.stamp !== stamp);
    },
    clear: async (key) => {
      entries.delete(key);
    },
  };
};

export type Reservation =
  | {
      ok: true;
      /** The work taught the caller nothing: give the attempt back. */
      release(): Promise<void>;
    }
  | { ok: false; retryAfterSeconds: number };

export type AttemptBudget = {
  /** Reserves one attempt of `key`, or answers how long to wait when the budget is spent. */
  reserve(key: string): Promise<Reservation>;
  /** A success: the key starts afresh. */
  clear(key: string): Promise<void>;
};

export const createAttemptBudget = (options: {
  clock: Clock;
  store: ThrottleStore;
  /** Keeps budgets of different purposes apart in one store. */
  prefix: string;
  max: number;
  windowMs: number;
}): AttemptBudget => {
  const { clock, store, prefix, max, windowMs } = options;
  return {
    reserve: async (key) => {
      const storeKey = `${prefix}:${key}`;
      const stamp = randomUUID();
      const waitMs = await store.take(storeKey, stamp, clock.now().getTime(), windowMs, max);
      if (waitMs > 0) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
      return { ok: true, release: () => store.release(storeKey, stamp) };
    },
    clear: (key) => store.clear(`${prefix}:${key}`),
  };
};

/** The budgets the core module keeps; every number here is documented in the README ("Sessions"). */
export const createCoreBudgets = (clock: Clock, store: ThrottleStore = createMemoryThrottleStore()) => ({
  /** Sign-in: 5 attempts per email + IP in 15 minutes; a success starts afresh. */
  login: createAttemptBudget({ clock, store, prefix: "login", max: 5, windowMs: 15 * 60_000 }),
  /** Current-password checks of a signed-in user (PUT /account): the same budget per user. */
  currentPassword: createAttemptBudget({
    clock,
    store,
    prefix: "current-password",
    max: 5,
    windowMs: 15 * 60_000,
  }),
  /** "This email is taken" answers per caller: 10 per hour (emails are unique platform-wide). */
  emailTaken: createAttemptBudget({ clock, store, prefix: "email-taken", max: 10, windowMs: 60 * 60_000 }),
});
export type CoreBudgets = ReturnType<typeof createCoreBudgets>;
