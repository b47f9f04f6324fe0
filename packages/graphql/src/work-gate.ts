/*
 * One caller's share of the database (docs/decisions/0012-graphql-caller-concurrency.md). A GraphQL
 * operation fans out: every alias, every batched operation and every request the caller has open runs
 * its service calls — each a transaction on a pooled connection — at once. Without a bound, one caller's
 * costly operations fill the pool and every other tenant's requests wait behind them. So each caller
 * (tenant + user, else the IP) runs at most `concurrency` service calls at a time, and each organization
 * (all its callers, and its sockets' re-checks) at most its own number; the rest wait their turn in
 * order, and a waiting call whose operation was aborted (timeout, client gone) leaves the queue.
 */

/** Runs `work` when the caller has a free slot; a call still waiting when `signal` aborts is dropped. */
export type WorkGate = { run<T>(work: () => T | Promise<T>, signal?: AbortSignal): Promise<T> };

type Waiter = { start(): void; signal: AbortSignal | undefined; onAbort: () => void };
type Lane = { running: number; waiting: Waiter[] };

export const createWorkGates = (concurrency: number) => {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error("concurrency must be ≥ 1");
  const lanes = new Map<string, Lane>();

  const release = (key: string, lane: Lane) => {
    const next = lane.waiting.shift();
    if (next) {
      next.signal?.removeEventListener("abort", next.onAbort);
      // On the next turn of the event loop, not in this chain of promises: other requests (read from
      // their sockets in between) queue their database work before this caller's next call. With the
      // embedded database, whose queries settle without ever yielding to I/O, a caller would otherwise
      // hold the whole process until its last call.
      setImmediate(next.start);
      return;
    }
    lane.running -= 1;
    // An idle caller holds no memory.
    if (lane.running === 0) lanes.delete(key);
  };

  const gate = (key: string): WorkGate => ({
    run: async <T>(work: () => T | Promise<T>, signal?: AbortSignal): Promise<T> => {
      signal?.throwIfAborted();
      let lane = lanes.get(key);
      if (!lane) {
        lane = { running: 0, waiting: [] };
        lanes.set(key, lane);
      }
      const own = lane;
      if (own.running < concurrency) {
        own.running += 1;
      } else {
        // Wait for a slot: the call that frees it hands it over (running stays the same).
        await new Promise<void>((resolve, reject) => {
          const waiter: Waiter = {
            start: resolve,
            signal,
            onAbort: () => {
              const index = own.waiting.indexOf(waiter);
              if (index >= 0) own.waiting.splice(index, 1);
              reject(signal?.reason ?? new Error("aborted"));
            },
          };
          signal?.addEventListener("abort", waiter.onAbort, { once: true });
          own.waiting.push(waiter);
        });
        // Handed the slot, it starts a turn later: its operation may have been aborted meanwhile.
        if (signal?.aborted) {
          release(key, own);
          throw signal.reason;
        }
      }
      try {
        return await work();
      } finally {
        release(key, own);
      }
    },
  });

  return {
    gate,
    /** How many of the caller's service calls run and wait now (tests, diagnostics). */
    load: (key: string) => {
      const lane = lanes.get(key);
      return { running: lane?.running ?? 0, waiting: lane?.waiting.length ?? 0 };
    },
    /** Callers with work running or waiting (0 when idle: nothing is kept per caller). */
    size: () => lanes.size,
  };
};

export type WorkGates = ReturnType<typeof createWorkGates>;

/**
 * Work that needs a slot of `outer` and then one of `inner` (a caller's, then its organization's): a call
 * holds its caller's slot while it waits for its organization's. Every call takes them in this order and
 * nothing holds an inner slot while it waits for an outer one, so no two calls wait on each other.
 */
export const nestedGate = (outer: WorkGate, inner: WorkGate): WorkGate => ({
  run: (work, signal) => outer.run(() => inner.run(work, signal), signal),
});

/**
 * `services` as seen by one operation: every method call, at any depth (`services.crm.chats.list(…)`),
 * goes through the caller's gate. Resolvers and loaders call services as usual and cannot bypass it.
 * `signal` is read at call time (the operation's abort signal, set once execution starts).
 */
export const gatedServices = <S extends object>(
  services: S,
  gate: WorkGate,
  signal: () => AbortSignal | undefined,
): S => {
  const proxies = new WeakMap<object, object>();
  const wrap = <T extends object>(target: T): T => {
    const existing = proxies.get(target);
    if (existing) return existing as T;
    const proxy = new Proxy(target, {
      get(object, key) {
        const value: unknown = Reflect.get(object, key);
        if (typeof value === "function") {
          return (...args: unknown[]) => gate.run(() => value.apply(object, args), signal());
        }
        if (value !== null && typeof value === "object") return wrap(value);
        return value;
      },
    });
    proxies.set(target, proxy);
    return proxy;
  };
  return wrap(services);
};
