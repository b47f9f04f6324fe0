import type { Db } from "@hisob/db";
import { EXPORT_MAX_ROWS } from "@hisob/kernel";
import { keysetBatches } from "./keyset";

/** Rows per FETCH from the export's cursor (and per keyset batch on the embedded database). */
export const STREAM_BATCH = 1_000;

/**
 * One statement of an export: its rows in the export's order, `take` of them after `skip`, and —
 * when `after` is given — only those strictly after that row in that order (the keyset condition).
 * Values travel as parameters (`SqlParams`); rows come as arrays of the select list's columns.
 */
export type StreamedStatement<Row> = (page: { after: Row | undefined; take: number; skip: number }) => {
  text: string;
  values: unknown[];
};

/**
 * A download's rows on the driver under the tenant's row-level security (`db.rawTx.withTenant`,
 * read-only), never through the ORM (docs/decisions/0098-reports-and-exports-at-their-baselines.md).
 *
 * On PostgreSQL: ONE statement read through a server-side cursor (`DECLARE … NO SCROLL CURSOR`,
 * `FETCH 1000` at a time) in one read-only transaction, so the file is one snapshot, the statement is
 * planned once, and the next batch is fetched while the writer formats the previous one (one batch
 * waits at most; memory holds about three). Ending the iteration early (the client went away) stops
 * the fetching and ends the transaction; the request's `signal` cancels a FETCH under way.
 *
 * On the embedded database (PGlite runs one transaction at a time for the whole process, so a
 * transaction held for a download would stall every other request): keyset batches, each its own
 * short transaction of the same statement with `after` set.
 */
export const streamedRows = <Tuple extends unknown[], Row>(
  db: Db,
  tenantId: string,
  options: {
    statement: StreamedStatement<Row>;
    toRow: (tuple: Tuple) => Row;
    limit: number | undefined;
    skip: number;
    signal?: AbortSignal | undefined;
  },
): AsyncIterable<Row[]> => {
  const limit = Math.min(options.limit ?? EXPORT_MAX_ROWS, EXPORT_MAX_ROWS);
  if (db.kind === "pglite")
    return keysetBatches<Row>(async (after, take) => {
      const { text, values } = options.statement({ after, take, skip: after ? 0 : options.skip });
      const tuples = await db.rawTx.withTenant(
        tenantId,
        (tx) => tx.query<Tuple>(text, values, { rowMode: "array" }),
        { readOnly: true, signal: options.signal },
      );
      return tuples.map(options.toRow);
    }, limit);
  return cursorBatches(
    db,
    tenantId,
    options.statement({ after: undefined, take: limit, skip: options.skip }),
    {
      toRow: options.toRow,
      signal: options.signal,
    },
  );
};

type Slot<T> = { kind: "rows"; rows: T } | { kind: "done" } | { kind: "failed"; error: unknown };

/**
 * A one-place hand-over between the transaction that fetches (`give`) and the writer (`take`): the
 * fetcher may run one batch ahead of the writer, no more.
 */
class Handover<T> {
  private slot: Slot<T> | undefined;
  private wakeTaker: (() => void) | undefined;
  private wakeGiver: (() => void) | undefined;
  private left = false;

  /** Waits until the place is free; false when the taker has left (stop fetching). */
  async give(rows: T): Promise<boolean> {
    while (this.slot && !this.left)
      await new Promise<void>((resolve) => {
        this.wakeGiver = resolve;
      });
    if (this.left) return false;
    this.put({ kind: "rows", rows });
    return true;
  }

  /** After the last batch was taken (at once when the taker has left: nobody waits). */
  async end(slot: Exclude<Slot<T>, { kind: "rows" }>) {
    while (this.slot && !this.left)
      await new Promise<void>((resolve) => {
        this.wakeGiver = resolve;
      });
    this.put(slot);
  }

  async take(): Promise<Slot<T>> {
    while (!this.slot)
      await new Promise<void>((resolve) => {
        this.wakeTaker = resolve;
      });
    const slot = this.slot;
    if (slot.kind === "rows") {
      this.slot = undefined;
      const wake = this.wakeGiver;
      this.wakeGiver = undefined;
      wake?.();
    }
    return slot;
  }

  leave() {
    this.left = true;
    const wake = this.wakeGiver;
    this.wakeGiver = undefined;
    wake?.();
  }

  private put(slot: Slot<T>) {
    this.slot = slot;
    const wake = this.wakeTaker;
    this.wakeTaker = undefined;
    wake?.();
  }
}

async function* cursorBatches<Tuple extends unknown[], Row>(
  db: Db,
  tenantId: string,
  statement: { text: string; values: unknown[] },
  options: { toRow: (tuple: Tuple) => Row; signal?: AbortSignal | undefined },
): AsyncGenerator<Row[]> {
  const handover = new Handover<Row[]>();
  const fetching = db.rawTx
    .withTenant(
      tenantId,
      async (tx) => {
        await tx.query(`DECLARE hisob_export NO SCROLL CURSOR FOR ${statement.text}`, statement.values);
        for (;;) {
          const tuples = await tx.query<Tuple>(`FETCH ${STREAM_BATCH} FROM hisob_export`, [], {
            rowMode: "array",
          });
          if (tuples.length > 0 && !(await handover.give(tuples.map(options.toRow)))) return;
          if (tuples.length < STREAM_BATCH) return;
        }
      },
      { readOnly: true, signal: options.signal },
    )
    .then(
      () => handover.end({ kind: "done" }),
      (error: unknown) => handover.end({ kind: "failed", error }),
    );
  try {
    for (;;) {
      const slot = await handover.take();
      if (slot.kind === "done") return;
      if (slot.kind === "failed") throw slot.error;
      yield slot.rows;
    }
  } finally {
    // Also when the writer stops early: the fetching ends at its next batch and its transaction with it.
    handover.leave();
    await fetching;
  }
}
