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
import type { RawTenantTx, SqlParams } from "./raw-tenant";
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
  /**
   * The same write as a data-modifying step of the caller's own statement, in a driver transaction
   * (raw-tenant.ts) or a Prisma one run as raw SQL (`afterCommit` from tx-hooks): returns an
   * `INSERT INTO outbox_events … SELECT … FROM <from>` (values as parameters in `params`) that writes the
   * event once per row of `from` — the posting's document, so a refused posting writes no event — and
   * dispatches after that transaction commits.
   * `mergePayload`: a jsonb SQL expression merged into the payload (facts the statement computes).
   * `eachRow`: `from` may have many rows (one event each, e.g. every session ended): each gets an id of
   * its own, ordered by time with the others (`id` is then the first one's prefix only).
   */
  stage(
    tx: Pick<RawTenantTx, "afterCommit">,
    params: SqlParams,
    event: DomainEvent,
    source: { from: string; mergePayload?: string; eachRow?: boolean },
  ): { id: string; sql: string };
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
  /**
   * How long after a commit the dispatcher starts (default 20 ms): the events committed meanwhile go
   * out in the same batch — one claim for many postings rather than one per posting.
   */
  dispatchDelayMs?: number;
  /**
   * What becomes of a due event no handler here subscribes to. `"settle"`: it is marked dispatched
   * (there is no one to run) — only for the process that runs every handler of the deployment, the
   * server. `"leave"` (default): it stays due for such a process. A CLI command subscribes to nothing,
   * and settling would mark the server's own due events (a `SessionDeleted` raised 20 ms earlier, a
   * retry after a failed publish) as delivered without their subscribers ever seeing them.
   */
  unhandled?: "settle" | "leave";
};

const MAX_BACKOFF_MS = 10 * 60_000;
/**
 * The dispatcher's bookkeeping commits without waiting for the WAL flush: losing a lease or a
 * "dispatched" mark in a crash only delivers the event again, which at-least-once allows. Events
 * themselves are written by the raising transaction, durably.
 */
const LAZY = { lazyCommit: true };

export const createOutbox = (db: Db, options: OutboxOptions = {}): Outbox => {
  const clock = options.clock ?? systemClock;
  const batchSize = options.batchSize ?? 100;
  const leaseMs = options.leaseMs ?? 60_000;
  const handlers = new Map<string, Set<EventHandler>>();
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  type ClaimedRow = {
    id: string;
    tenant_id: string | null;
    type: string;
    payload: unknown;
    occurred_at: Date;
    attempts: number;
    handled: boolean;
  };

  /**
   * Claims what is due, oldest first, in one statement of a driver transaction as `hisob_system`
   * (raw-tenant.ts): events of a type this dispatcher has handlers for are leased to it; with
   * `unhandled: "settle"` the others are marked dispatched in the same statement, as dispatching them
   * (no handler to run) would, and otherwise they are not touched.
   */
  const settle = options.unhandled === "settle";
  const claim = async (now: Date): Promise<ClaimedRow[]> => {
    const handled = [...handlers].filter(([, set]) => set.size > 0).map(([type]) => type);
    if (!settle && handled.length === 0) return [];
    const types = JSON.stringify(handled);
    return db.rawTx.withSystem(
      (tx) =>
        tx.query<ClaimedRow>(
          `WITH due AS (
           SELECT id, type IN (SELECT jsonb_array_elements_text($4::jsonb)) AS handled
             FROM outbox_events
            WHERE dispatched_at IS NULL AND available_at <= $1::timestamptz
                  ${settle ? "" : "AND type IN (SELECT jsonb_array_elements_text($4::jsonb))"}
            ORDER BY id LIMIT $3::int
              FOR UPDATE SKIP LOCKED)
         UPDATE outbox_events o
            SET attempts = o.attempts + 1,
                available_at = CASE WHEN due.handled THEN $2::timestamptz ELSE o.available_at END,
                dispatched_at = CASE WHEN due.handled THEN NULL ELSE $1::timestamptz END,
                last_error = CASE WHEN due.handled THEN o.last_error END
           FROM due WHERE o.id = due.id
         RETURNING o.id::text AS id, o.tenant_id::text AS tenant_id, o.type,
                   CASE WHEN due.handled THEN o.payload END AS payload, o.occurred_at, o.attempts, due.handled`,
          [now, new Date(now.getTime() + leaseMs), batchSize, types],
        ),
      LAZY,
    );
  };

  const dispatchOnce = async (): Promise<number> => {
    const claimed = (await claim(clock.now())).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const delivered: string[] = [];
    for (const row of claimed) {
      if (!row.handled) continue;
      const event: DispatchedEvent = {
        id: row.id,
        type: row.type,
        tenantId: row.tenant_id,
        payload: row.payload as Record<string, unknown>,
        occurredAt: new Date(row.occurred_at),
      };
      try {
        for (const handler of handlers.get(event.type) ?? []) await handler(event);
        delivered.push(event.id);
      } catch (error) {
        options.onError?.(event, error);
        const backoff = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** Math.min(row.attempts, 20));
        const message = error instanceof Error ? error.message : String(error);
        await db.system.markOutboxFailed(event.id, message, new Date(clock.now().getTime() + backoff));
      }
    }
    // One statement marks the batch delivered; a crash before it delivers the batch again (at least once).
    if (delivered.length > 0) {
      const at = clock.now();
      await db.rawTx.withSystem(
        (tx) =>
          tx.query(
            `UPDATE outbox_events SET dispatched_at = $1::timestamptz, last_error = NULL
            WHERE id IN (SELECT (jsonb_array_elements_text($2::jsonb))::uuid)`,
            [at, JSON.stringify(delivered)],
          ),
        LAZY,
      );
    }
    return claimed.length;
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

  /** After a commit: one dispatch a moment later for everything committed until then. */
  const dispatchDelayMs = options.dispatchDelayMs ?? 20;
  let soon: NodeJS.Timeout | undefined;
  const kickSoon = () => {
    if (stopped || soon) return;
    soon = setTimeout(() => {
      soon = undefined;
      kickQuietly();
    }, dispatchDelayMs);
    // A pending event never holds the process open: the poller (or the next start) delivers it.
    soon.unref();
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
      afterCommit(tx, kickSoon);
      return id;
    },
    stage: (tx, params, event, source) => {
      const id = newId();
      const now = clock.now();
      const payload = `${params.add(JSON.stringify(event.payload))}::jsonb`;
      // One id per row: this id's time part (UUIDv7's 48-bit time and version, so rows are dispatched in
      // time order with every other event) and 60 random bits per row.
      const rowId = source.eachRow
        ? `(${params.add(id.slice(0, 19))} || '8' || substr(md5(random()::text), 1, 3) || '-' || substr(md5(random()::text), 1, 12))::uuid`
        : `${params.add(id)}::uuid`;
      const sql = `INSERT INTO outbox_events (id, tenant_id, type, payload, occurred_at, available_at)
        SELECT ${rowId}, ${params.add(event.tenantId)}::uuid, ${params.add(event.type)},
               ${source.mergePayload ? `${payload} || ${source.mergePayload}` : payload},
               ${params.add(now)}::timestamptz, ${params.add(now)}::timestamptz
          FROM ${source.from}`;
      tx.afterCommit(kickSoon);
      return { id, sql };
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
      if (soon) clearTimeout(soon);
      soon = undefined;
      while (running) await running;
    },
  };
};
