import {
  type Clock,
  type DispatchedEvent,
  type DomainEvent,
  type EventHandler,
  newId,
  systemClock,
} from "@hisob/kernel";
import type { Tx } from "./client";
import type { Db } from "./create-db";
import { afterCommit } from "./tx-hooks";

/**
 * The transactional outbox. `raise(tx, event)` writes the event in the caller's transaction;
 * once that transaction commits, the dispatcher hands it to the subscribed handlers. Delivery is
 * at least once: an event is marked dispatched only after every handler succeeded, a failure is
 * retried with backoff, and a crash mid-dispatch is retried when the lease runs out. Handlers must
 * therefore be idempotent (use `event.id`). A rolled-back transaction leaves no event behind.
 */
export type Outbox = {
  raise(tx: Tx, event: DomainEvent): Promise<string>;
  subscribe(type: string, handler: EventHandler): () => void;
  /** Dispatches everything due now; resolves when none is left (tests await it). */
  drain(): Promise<void>;
  /** Polls for retries and for events left by a crashed process. */
  start(pollMs?: number): void;
  stop(): Promise<void>;
};

type OutboxOptions = {
  clock?: Clock;
  batchSize?: number;
  /** How long a claimed event is reserved for this dispatcher. */
  leaseMs?: number;
  onError?: (event: DispatchedEvent, error: unknown) => void;
};

const MAX_BACKOFF_MS = 10 * 60_000;

export const createOutbox = (db: Db, options: OutboxOptions = {}): Outbox => {
  const clock = options.clock ?? systemClock;
  const batchSize = options.batchSize ?? 100;
  const leaseMs = options.leaseMs ?? 60_000;
  const handlers = new Map<string, Set<EventHandler>>();
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const dispatchOnce = async (): Promise<number> => {
    const now = clock.now();
    const events = await db.system.claimOutboxEvents(batchSize, now, new Date(now.getTime() + leaseMs));
    for (const row of events) {
      const event: DispatchedEvent = {
        id: row.id,
        type: row.type,
        tenantId: row.tenantId,
        payload: row.payload as Record<string, unknown>,
        occurredAt: row.occurredAt,
      };
      try {
        for (const handler of handlers.get(event.type) ?? []) await handler(event);
        await db.system.markOutboxDispatched(event.id, clock.now());
      } catch (error) {
        options.onError?.(event, error);
        const backoff = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** Math.min(row.attempts, 20));
        const message = error instanceof Error ? error.message : String(error);
        await db.system.markOutboxFailed(event.id, message, new Date(clock.now().getTime() + backoff));
      }
    }
    return events.length;
  };

  /** Coalesces kicks: at most one dispatch loop runs; a kick during it schedules one more pass. */
  const kick = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          while ((await dispatchOnce()) === batchSize) {
            // a full batch: there may be more
          }
        } while (again && !stopped);
      } finally {
        running = null;
      }
    })();
    return running;
  };

  const kickQuietly = () => {
    kick().catch((error: unknown) =>
      options.onError?.({ id: "", type: "", tenantId: null, payload: {}, occurredAt: clock.now() }, error),
    );
  };

  return {
    raise: async (tx, event) => {
      const id = newId();
      await tx.outboxEvent.create({
        data: {
          id,
          tenantId: event.tenantId,
          type: event.type,
          payload: event.payload as object,
          occurredAt: clock.now(),
          availableAt: clock.now(),
        },
      });
      afterCommit(tx, kickQuietly);
      return id;
    },
    subscribe: (type, handler) => {
      const set = handlers.get(type) ?? new Set<EventHandler>();
      set.add(handler);
      handlers.set(type, set);
      return () => set.delete(handler);
    },
    drain: async () => {
      await kick();
      // A kick that arrived while the previous loop was finishing.
      while (running) await running;
    },
    start: (pollMs = 5_000) => {
      stopped = false;
      timer = setInterval(kickQuietly, pollMs);
      timer.unref();
      kickQuietly();
    },
    stop: async () => {
      stopped = true;
      if (timer) clearInterval(timer);
      while (running) await running;
    },
  };
};
