// The transactional outbox on a real database: events are stored in the raising transaction,
// delivered only after it commits, retried with backoff (driven by a manual clock, never by
// waiting) and delivered once per dispatcher pool. Each test uses its own event types.
import { createManualClock, type DispatchedEvent, type ManualClock } from "@hisob/kernel";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "./create-db";
import { createOutbox, type Outbox } from "./outbox";
import { sqlParams } from "./raw-tenant";
import { createTestDb, insertTenant } from "./testing";
import { afterCommit } from "./tx-hooks";

let db: Db;
let tenantId: string;
let clock: ManualClock;
const outboxes: Outbox[] = [];

/** Every outbox in this file shares the manual clock (event times come from the raiser's clock). */
const newOutbox = (
  options: { batchSize?: number; leaseMs?: number; unhandled?: "settle" | "leave" } = {},
) => {
  const errors: Array<{ event: DispatchedEvent; error: unknown }> = [];
  const outbox = createOutbox(db, {
    clock,
    ...options,
    onError: (event, error) => errors.push({ event, error }),
  });
  outboxes.push(outbox);
  return { outbox, errors };
};

/** An outbox that only writes: stopped, so its commits do not start a dispatch. */
const newRaiser = async () => {
  const { outbox } = newOutbox();
  await outbox.stop();
  return outbox;
};

/** A tenant's outbox rows of one type, read through row-level security. */
const rowsOf = (type: string) =>
  db.withTenant(tenantId, (tx) => tx.outboxEvent.findMany({ where: { type }, orderBy: { id: "asc" } }));

const raiseMany = (outbox: Outbox, type: string, from: number, count: number) =>
  db.withTenant(tenantId, async (tx) => {
    const ids: string[] = [];
    for (let seq = from; seq < from + count; seq++)
      ids.push(await outbox.raise(tx, { type, tenantId, payload: { seq } }));
    return ids;
  });

beforeAll(async () => {
  db = await createTestDb();
  tenantId = (await insertTenant(db, "Outbox Co")).id;
  clock = createManualClock(new Date("2026-03-01T09:00:00.000Z"));
});

// Every dispatcher claims what is due in the shared table for its handlers (and a settling one marks
// the types it has no handler for as dispatched), so a test's outboxes stop when it ends: a commit's
// delayed dispatch (20 ms) must not fire in the next test and take its events.
afterEach(async () => {
  for (const outbox of outboxes.splice(0)) await outbox.stop();
});

afterAll(async () => {
  await db?.close();
});

describe("delivery after commit", () => {
  it("delivers an event raised inside withTenant only once the transaction has committed", async () => {
    const { outbox } = newOutbox();
    const delivered: DispatchedEvent[] = [];
    outbox.subscribe("PaymentCreated", (event) => {
      delivered.push(event);
    });
    const payload = { paymentId: "p-1", amount: "9223372036854775807", lines: [{ note: "ünïcode ✓" }] };

    const id = await db.withTenant(tenantId, async (tx) => {
      const raised = await outbox.raise(tx, { type: "PaymentCreated", tenantId, payload });
      // Stored in this transaction...
      expect(await tx.outboxEvent.count({ where: { id: raised } })).toBe(1);
      if (db.kind === "postgres") {
        // ...but invisible to a dispatcher on another connection until the commit. (PGlite has one
        // connection: a dispatcher there would queue behind this transaction.)
        await outbox.drain();
      }
      expect(delivered).toEqual([]);
      return raised;
    });
    expect(delivered).toEqual([]);

    await outbox.drain();
    expect(delivered).toEqual([
      { id, type: "PaymentCreated", tenantId, payload, occurredAt: new Date("2026-03-01T09:00:00.000Z") },
    ]);
    const [row] = await rowsOf("PaymentCreated");
    expect(row).toMatchObject({ id, attempts: 1, lastError: null, dispatchedAt: clock.now() });
  });

  it("never stores or delivers an event whose transaction rolled back", async () => {
    const { outbox } = newOutbox();
    let calls = 0;
    outbox.subscribe("RolledBack", () => {
      calls++;
    });
    await expect(
      db.withTenant(tenantId, async (tx) => {
        await outbox.raise(tx, { type: "RolledBack", tenantId, payload: {} });
        throw new Error("the payment failed");
      }),
    ).rejects.toThrow("the payment failed");
    await outbox.drain();
    expect(calls).toBe(0);
    expect(await rowsOf("RolledBack")).toEqual([]);
  });

  it("does not deliver a dispatched event again", async () => {
    const { outbox } = newOutbox();
    const seen: string[] = [];
    outbox.subscribe("Once", (event) => {
      seen.push(event.id);
    });
    const [id] = await raiseMany(outbox, "Once", 1, 1);
    await outbox.drain();
    await outbox.drain();
    // Not even after any lease or backoff would have run out.
    clock.advance(24 * 60 * 60_000);
    await outbox.drain();
    await newOutbox().outbox.drain();
    expect(seen).toEqual([id]);
  });

  it("runs every handler of the type; an unsubscribed handler is no longer called", async () => {
    const { outbox } = newOutbox();
    const calls: string[] = [];
    outbox.subscribe("Fanout", () => {
      calls.push("audit");
    });
    const unsubscribe = outbox.subscribe("Fanout", () => {
      calls.push("mail");
    });
    await raiseMany(outbox, "Fanout", 1, 1);
    await outbox.drain();
    unsubscribe();
    await raiseMany(outbox, "Fanout", 2, 1);
    await outbox.drain();
    expect(calls).toEqual(["audit", "mail", "audit"]);
  });
});

describe("ordering", () => {
  it("delivers events in the order they were raised, across transactions and batches", async () => {
    const raiser = await newRaiser();
    const { outbox } = newOutbox({ batchSize: 3 });
    const order: number[] = [];
    outbox.subscribe("Ordered", (event) => {
      order.push(Number(event.payload.seq));
    });
    await raiseMany(raiser, "Ordered", 1, 4);
    await raiseMany(raiser, "Ordered", 5, 1);
    await raiseMany(raiser, "Ordered", 6, 5);
    await outbox.drain();
    expect(order).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

describe("staged events, one per row", () => {
  it("gives each row's event an id of its own, with the time part of the statement's id", async () => {
    const raiser = await newRaiser();
    const { outbox } = newOutbox();
    const seen: unknown[] = [];
    outbox.subscribe("PerRow", (event) => {
      seen.push(event.payload.seq);
    });
    const staged = await db.withTenant(tenantId, async (tx) => {
      const params = sqlParams();
      const statement = raiser.stage(
        { afterCommit: (callback) => afterCommit(tx, callback) },
        params,
        { type: "PerRow", tenantId, payload: {} },
        {
          from: "generate_series(1, 40) AS row(seq)",
          eachRow: true,
          mergePayload: "jsonb_build_object('seq', row.seq)",
        },
      );
      await tx.$executeRawUnsafe(statement.sql, ...params.values);
      return statement;
    });
    const rows = await rowsOf("PerRow");
    expect(new Set(rows.map((row) => row.id)).size).toBe(40);
    // UUIDv7's time and version: dispatched in time order with every other event.
    for (const row of rows) expect(row.id.slice(0, 19)).toBe(staged.id.slice(0, 19));
    await outbox.drain();
    expect([...seen].sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  });
});

describe("a failing handler", () => {
  it("leaves the event pending with its error, retries only after the backoff, then delivers it", async () => {
    const { outbox, errors } = newOutbox();
    let failuresLeft = 2;
    const delivered: string[] = [];
    outbox.subscribe("Flaky", (event) => {
      if (failuresLeft > 0) {
        failuresLeft--;
        throw new Error("mail server down");
      }
      delivered.push(event.id);
    });
    const [id] = await raiseMany(outbox, "Flaky", 1, 1);
    const start = clock.now().getTime();

    await outbox.drain();
    expect(delivered).toEqual([]);
    expect(errors.map((e) => [e.event.id, (e.error as Error).message])).toEqual([[id, "mail server down"]]);
    expect(await rowsOf("Flaky")).toMatchObject([
      {
        id,
        attempts: 1,
        lastError: "mail server down",
        dispatchedAt: null,
        availableAt: new Date(start + 2_000),
      },
    ]);

    // Not before its backoff (2 s after the first failure), however often the dispatcher runs.
    await outbox.drain();
    clock.advance(1_999);
    await outbox.drain();
    expect(errors).toHaveLength(1);
    expect((await rowsOf("Flaky"))[0]?.attempts).toBe(1);

    // Due: tried again, fails again, and backs off twice as long.
    clock.advance(1);
    await outbox.drain();
    expect(errors).toHaveLength(2);
    expect(await rowsOf("Flaky")).toMatchObject([
      {
        attempts: 2,
        lastError: "mail server down",
        dispatchedAt: null,
        availableAt: new Date(start + 6_000),
      },
    ]);
    clock.advance(3_999);
    await outbox.drain();
    expect(delivered).toEqual([]);

    clock.advance(1);
    await outbox.drain();
    expect(delivered).toEqual([id]);
    expect(await rowsOf("Flaky")).toMatchObject([
      { attempts: 3, lastError: null, dispatchedAt: new Date(start + 6_000) },
    ]);
  });

  it("does not hold back the events behind it", async () => {
    const { outbox } = newOutbox();
    const delivered: number[] = [];
    outbox.subscribe("Blocked", (event) => {
      if (event.payload.seq === 1) throw new Error("poison");
      delivered.push(Number(event.payload.seq));
    });
    await raiseMany(outbox, "Blocked", 1, 3);
    await outbox.drain();
    expect(delivered).toEqual([2, 3]);
    expect((await rowsOf("Blocked")).map((row) => row.dispatchedAt === null)).toEqual([true, false, false]);
    // Settle the poison event so later tests see no due event left behind.
    clock.advance(60_000);
    await db.withTenant(tenantId, (tx) =>
      tx.outboxEvent.updateMany({ where: { type: "Blocked" }, data: { dispatchedAt: clock.now() } }),
    );
  });
});

describe("several dispatchers", () => {
  it("two outboxes draining at the same time deliver each event exactly once in total", async () => {
    const raiser = await newRaiser();
    const a = newOutbox({ batchSize: 4 }).outbox;
    const b = newOutbox({ batchSize: 4 }).outbox;
    const deliveries: Array<{ by: string; seq: number }> = [];
    for (const [by, outbox] of [
      ["a", a],
      ["b", b],
    ] as const) {
      outbox.subscribe("Concurrent", async (event) => {
        await Promise.resolve();
        deliveries.push({ by, seq: Number(event.payload.seq) });
      });
    }
    const ids = [
      ...(await raiseMany(raiser, "Concurrent", 0, 20)),
      ...(await raiseMany(raiser, "Concurrent", 20, 20)),
    ];

    await Promise.all([a.drain(), b.drain(), a.drain(), b.drain()]);
    expect(deliveries.map((d) => d.seq).sort((x, y) => x - y)).toEqual([...Array(40).keys()]);
    // Each event was claimed exactly once, and each dispatcher kept its own order.
    const rows = await rowsOf("Concurrent");
    expect(rows.map((row) => row.id)).toEqual(ids);
    expect(rows.every((row) => row.attempts === 1 && row.dispatchedAt !== null)).toBe(true);
    for (const by of ["a", "b"]) {
      const seqs = deliveries.filter((d) => d.by === by).map((d) => d.seq);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    }
  });

  it("an event held by a dispatcher that stopped answering is delivered by another after its lease", async () => {
    const raiser = await newRaiser();
    const stuck = newOutbox({ leaseMs: 30_000 }).outbox;
    const healthy = newOutbox().outbox;
    let unblock = () => {};
    const blocked = new Promise<void>((resolve) => {
      unblock = resolve;
    });
    let claimed = () => {};
    const claimedByStuck = new Promise<void>((resolve) => {
      claimed = resolve;
    });
    stuck.subscribe("Leased", async () => {
      claimed();
      await blocked;
    });
    const delivered: string[] = [];
    healthy.subscribe("Leased", (event) => {
      delivered.push(event.id);
    });
    const [id] = await raiseMany(raiser, "Leased", 1, 1);

    const stuckDrain = stuck.drain();
    await claimedByStuck;
    await healthy.drain();
    expect(delivered).toEqual([]);
    clock.advance(29_999);
    await healthy.drain();
    expect(delivered).toEqual([]);

    clock.advance(1);
    await healthy.drain();
    expect(delivered).toEqual([id]);

    // The stuck dispatcher finishing late is harmless (delivery is at least once; handlers are idempotent).
    unblock();
    await stuckDrain;
    expect(await rowsOf("Leased")).toMatchObject([{ id, attempts: 2, lastError: null }]);
  });

  it("start() dispatches what is due and stop() waits for the dispatch in progress", async () => {
    const raiser = await newRaiser();
    const { outbox } = newOutbox();
    const delivered: number[] = [];
    outbox.subscribe("Polled", async (event) => {
      await Promise.resolve();
      delivered.push(Number(event.payload.seq));
    });
    await raiseMany(raiser, "Polled", 1, 3);
    outbox.start(60 * 60_000);
    await outbox.stop();
    expect(delivered).toEqual([1, 2, 3]);
  });

  it("a dispatcher without a handler leaves the event for one with it; only a settling one marks the rest", async () => {
    const raiser = await newRaiser();
    // The CLI: no handlers, leaves what it cannot deliver (its own events and the server's).
    const cli = newOutbox().outbox;
    const [pending] = await raiseMany(raiser, "ForTheServer", 1, 1);
    const [nobodys] = await raiseMany(raiser, "ForNobody", 1, 1);
    await cli.drain();
    expect(await rowsOf("ForTheServer")).toMatchObject([{ id: pending, attempts: 0, dispatchedAt: null }]);
    expect(await rowsOf("ForNobody")).toMatchObject([{ id: nobodys, attempts: 0, dispatchedAt: null }]);
    // A process with some handlers still only takes its own types.
    const partial = newOutbox().outbox;
    partial.subscribe("SomethingElse", () => {});
    await partial.drain();
    expect(await rowsOf("ForTheServer")).toMatchObject([{ attempts: 0, dispatchedAt: null }]);

    // The server: runs its handler, and settles the type nobody subscribes to.
    const server = newOutbox({ unhandled: "settle" }).outbox;
    const delivered: string[] = [];
    server.subscribe("ForTheServer", (event) => {
      delivered.push(event.id);
    });
    await server.drain();
    expect(delivered).toEqual([pending]);
    expect(await rowsOf("ForTheServer")).toMatchObject([{ attempts: 1, dispatchedAt: clock.now() }]);
    expect(await rowsOf("ForNobody")).toMatchObject([{ attempts: 1, dispatchedAt: clock.now() }]);
  });
});
