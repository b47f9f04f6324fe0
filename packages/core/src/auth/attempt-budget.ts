import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { Clock } from "@hisob/kernel";

/*
 * A budget of attempts per key (email + IP and IP alone for sign-in, a user for current-password
 * checks, a caller for email-uniqueness answers) in a sliding window. An attempt is reserved *before*
 * the work it guards (a password verification, a uniqueness check) in one atomic step, so parallel
 * guesses cannot all pass a check made before any of them is counted. The work then settles the
 * reservation: `keep` (a failure: it counts), `release` (nothing learnt: given back) or `clear` on
 * the key (a success: the key starts afresh).
 *
 * A reservation that is not settled yet is *pending*. Pending reservations hold their place (so at
 * most `max - spent` guesses run at once) but are not refusals: a request that finds the budget full
 * of pending ones waits until they settle, and is refused only when the attempts actually *kept*
 * fill the budget. Counting pending reservations as spent refused twenty of thirty parallel user
 * creations with fresh emails, none of which taught anyone anything. A pending reservation that is
 * never settled (its process died) counts as kept once its lease runs out.
 *
 * Written here rather than taken from a rate-limit library: it reserves before the work and settles
 * after, and it runs on an injected clock (tests drive the window without sleeping). The store is an
 * interface: in memory for one process, Redis for several instances.
 */

export type TakeResult =
  /** Reserved: the stamp is pending until kept or released. */
  | { granted: true }
  /** Kept attempts fill the budget: `waitMs` until the oldest that blocks leaves the window. */
  | { granted: false; busy: false; waitMs: number }
  /** Kept and pending attempts fill it: ask again once a pending one has settled. */
  | { granted: false; busy: true };

export type ThrottleStore = {
  /**
   * Atomically: forgets kept stamps of `key` older than `now - windowMs` and turns pending stamps
   * older than `leaseMs` into kept ones; then, if kept + pending < `max`, records `stamp` as pending
   * at `now`. See TakeResult for the answers.
   */
  take(
    key: string,
    stamp: string,
    now: number,
    options: { windowMs: number; max: number; leaseMs: number },
  ): Promise<TakeResult>;
  /** A pending stamp counts: kept at `takenAt` (when it was reserved) for `windowMs`. */
  keep(key: string, stamp: string, takenAt: number, windowMs: number): Promise<void>;
  /** Forgets one stamp (a reservation whose work taught the caller nothing). */
  release(key: string, stamp: string): Promise<void>;
  /** Forgets every stamp of `key`, kept and pending. */
  clear(key: string): Promise<void>;
  /** Remembers `key` (a flag, no stamps) from `now` for `ttlMs`. */
  remember(key: string, now: number, ttlMs: number): Promise<void>;
  /** Whether `key` is remembered at `now`. */
  isRemembered(key: string, now: number): Promise<boolean>;
};

const MAX_MEMORY_KEYS = 10_000;
/** Flags kept in memory; the oldest go first (a forgotten flag only costs its owner the account budget). */
const MAX_MEMORY_FLAGS = 100_000;

type MemoryEntry = {
  kept: Array<{ stamp: string; at: number }>;
  pending: Map<string, number>;
  expiresAt: number;
};

export const createMemoryThrottleStore = (): ThrottleStore => {
  const entries = new Map<string, MemoryEntry>();
  const flags = new Map<string, number>();
  const sweep = (now: number) => {
    if (entries.size <= MAX_MEMORY_KEYS) return;
    for (const [key, entry] of entries)
      if (entry.expiresAt <= now && entry.pending.size === 0) entries.delete(key);
  };
  const entryOf = (key: string): MemoryEntry => {
    let entry = entries.get(key);
    if (!entry) {
      entry = { kept: [], pending: new Map(), expiresAt: 0 };
      entries.set(key, entry);
    }
    return entry;
  };
  const insertKept = (entry: MemoryEntry, stamp: string, at: number) => {
    entry.kept.push({ stamp, at });
    entry.kept.sort((a, b) => a.at - b.at);
  };
  return {
    // No await inside: one call runs to completion before another starts, which makes it atomic.
    take: async (key, stamp, now, { windowMs, max, leaseMs }) => {
      const entry = entryOf(key);
      for (const [pendingStamp, at] of entry.pending) {
        if (at + leaseMs > now) continue;
        entry.pending.delete(pendingStamp);
        insertKept(entry, pendingStamp, at);
      }
      entry.kept = entry.kept.filter((item) => item.at > now - windowMs);
      entry.expiresAt = now + windowMs;
      if (entry.kept.length >= max) {
        const oldestThatBlocks = entry.kept[entry.kept.length - max]?.at ?? now;
        return { granted: false, busy: false, waitMs: Math.max(1, oldestThatBlocks + windowMs - now) };
      }
      if (entry.kept.length + entry.pending.size >= max) return { granted: false, busy: true };
      entry.pending.set(stamp, now);
      sweep(now);
      return { granted: true };
    },
    keep: async (key, stamp, takenAt, windowMs) => {
      const entry = entryOf(key);
      entry.pending.delete(stamp);
      // Its lease may have run out first and turned it into a kept stamp already: it counts once.
      if (!entry.kept.some((item) => item.stamp === stamp)) insertKept(entry, stamp, takenAt);
      entry.expiresAt = Math.max(entry.expiresAt, takenAt + windowMs);
    },
    release: async (key, stamp) => {
      const entry = entries.get(key);
      if (!entry) return;
      entry.pending.delete(stamp);
      // Given back also when its lease ran out before the work ended (it was counted as kept meanwhile).
      entry.kept = entry.kept.filter((item) => item.stamp !== stamp);
    },
    clear: async (key) => {
      entries.delete(key);
    },
    remember: async (key, now, ttlMs) => {
      flags.delete(key);
      flags.set(key, now + ttlMs);
      if (flags.size > MAX_MEMORY_FLAGS) {
        const oldest = flags.keys().next();
        if (!oldest.done) flags.delete(oldest.value);
      }
    },
    isRemembered: async (key, now) => (flags.get(key) ?? 0) > now,
  };
};

export type Reservation =
  | {
      ok: true;
      /** The work taught the caller nothing: give the attempt back. */
      release(): Promise<void>;
      /** The work failed in a way that counts (a wrong password, an email found taken). */
      keep(): Promise<void>;
    }
  | { ok: false; retryAfterSeconds: number };

export type AttemptBudget = {
  /**
   * Reserves one attempt of `key`, or answers how long to wait when the kept attempts fill the
   * budget. While pending reservations fill it, waits for them to settle.
   */
  reserve(key: string): Promise<Reservation>;
  /** A success: the key starts afresh. */
  clear(key: string): Promise<void>;
};

/** How long a reservation may stay pending before it counts as kept (its process died). */
const DEFAULT_LEASE_MS = 15_000;
/** Waiting for pending reservations to settle: first and longest pause between asks. */
const FIRST_PAUSE_MS = 5;
const LONGEST_PAUSE_MS = 100;

export const createAttemptBudget = (options: {
  clock: Clock;
  store: ThrottleStore;
  /** Keeps budgets of different purposes apart in one store. */
  prefix: string;
  max: number;
  windowMs: number;
  leaseMs?: number;
}): AttemptBudget => {
  const { clock, store, prefix, max, windowMs } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  return {
    reserve: async (key) => {
      const storeKey = `${prefix}:${key}`;
      const stamp = randomUUID();
      // Waiting is measured in real time: a pending reservation settles when its work ends, whatever
      // the injected clock says. Past the lease, the store has turned it into a kept one by now.
      const giveUpAt = Date.now() + leaseMs;
      let pause = FIRST_PAUSE_MS;
      for (;;) {
        const takenAt = clock.now().getTime();
        const result = await store.take(storeKey, stamp, takenAt, { windowMs, max, leaseMs });
        if (result.granted) {
          return {
            ok: true,
            release: () => store.release(storeKey, stamp),
            keep: () => store.keep(storeKey, stamp, takenAt, windowMs),
          };
        }
        if (!result.busy)
          return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(result.waitMs / 1000)) };
        if (Date.now() >= giveUpAt) return { ok: false, retryAfterSeconds: 1 };
        await delay(pause);
        pause = Math.min(LONGEST_PAUSE_MS, pause * 2);
      }
    },
    clear: (key) => store.clear(`${prefix}:${key}`),
  };
};

/**
 * Networks a user has signed in from (email + client network), remembered for `ttlMs` after each
 * success: the account-wide budget does not hold them back (docs/decisions/0019-account-wide-sign-in-budget.md).
 */
export type KnownNetworks = {
  add(email: string, network: string): Promise<void>;
  has(email: string, network: string): Promise<boolean>;
};

export const createKnownNetworks = (options: {
  clock: Clock;
  store: ThrottleStore;
  prefix: string;
  ttlMs: number;
}): KnownNetworks => {
  const { clock, store, prefix, ttlMs } = options;
  const keyOf = (email: string, network: string) => `${prefix}:${email}|${network}`;
  return {
    add: (email, network) => store.remember(keyOf(email, network), clock.now().getTime(), ttlMs),
    has: (email, network) => store.isRemembered(keyOf(email, network), clock.now().getTime()),
  };
};

/** The budgets the core module keeps; every number here is documented in the README ("Sessions"). */
export const createCoreBudgets = (clock: Clock, store: ThrottleStore = createMemoryThrottleStore()) => ({
  /** Sign-in: 5 attempts per email + IP in 15 minutes; a success starts afresh. */
  login: createAttemptBudget({ clock, store, prefix: "login", max: 5, windowMs: 15 * 60_000 }),
  /**
   * Failed sign-ins per client network (an IPv4 address, an IPv6 /64), whatever the email: 30 in 15
   * minutes. A success gives its own attempt back but never clears the network's count (one account
   * the attacker owns must not reset it). See docs/decisions/0001-sign-in-failures-per-network.md.
   */
  loginPerNetwork: createAttemptBudget({
    clock,
    store,
    prefix: "login-network",
    max: 30,
    windowMs: 15 * 60_000,
  }),
  /**
   * Failed sign-ins per account (email), from networks it has not signed in from lately: 20 in 15
   * minutes, whatever the networks (a botnet guessing one account). Networks the user signed in from
   * (`knownNetworks`, 30 days) are not held back by it, so the real user is not locked out by it.
   * See docs/decisions/0019-account-wide-sign-in-budget.md.
   */
  loginPerAccount: createAttemptBudget({
    clock,
    store,
    prefix: "login-account",
    max: 20,
    windowMs: 15 * 60_000,
  }),
  knownNetworks: createKnownNetworks({
    clock,
    store,
    prefix: "login-known",
    ttlMs: 30 * 24 * 60 * 60_000,
  }),
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
