import type { Db } from "@hisob/db";
import { createTestDb, insertTenant } from "@hisob/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STREAM_BATCH, type StreamedStatement, streamedRows } from "./streamed-rows";

// A download's rows on the driver (streamed-rows.ts): on PostgreSQL one statement through a cursor in
// one read-only transaction, on PGlite keyset batches — the same rows in the same order either way,
// only the tenant's (the statement names no tenant: row-level security is the wall), and a download
// stopped early lets its connection go.

let db: Db;
let tenantA: string;
let tenantB: string;
const EVENTS = 2_500;

type Row = { type: string; id: string };
/** Tenant-owned rows in (type, id) order; `after` continues a keyset walk. No tenant condition. */
const statement =
  (prefix = "export."): StreamedStatement<Row> =>
  ({ after, take, skip }) => {
    const values: unknown[] = [`${prefix}%`];
    let keyset = "";
    if (after) {
      values.push(after.type, after.id);
      keyset = "AND (type, id) > ($2, $3::uuid)";
    }
    values.push(take, skip);
    const n = values.length;
    return {
      text: `SELECT type, id::text FROM outbox_events WHERE type LIKE $1 ${keyset}
              ORDER BY type, id LIMIT $${n - 1} OFFSET $${n}`,
      values,
    };
  };
const toRow = ([type, id]: [string, string]): Row => ({ type, id });

const collect = async (rows: AsyncIterable<Row[]>) => {
  const batches: Row[][] = [];
  for await (const batch of rows) batches.push(batch);
  return batches;
};

beforeAll(async () => {
  db = await createTestDb();
  tenantA = (await insertTenant(db, "Stream A")).id;
  tenantB = (await insertTenant(db, "Stream B")).id;
  for (const [tenant, count] of [
    [tenantA, EVENTS],
    [tenantB, 700],
  ] as const)
    await db.rawTx.withTenant(tenant, (tx) =>
      tx.query(
        `INSERT INTO outbox_events (id, tenant_id, type, payload)
         SELECT gen_random_uuid(), $1::uuid, 'export.' || lpad((g % 1000)::text, 4, '0'), '{}'::jsonb
           FROM generate_series(1, $2::int) AS g`,
        [tenant, count],
      ),
    );
});
afterAll(async () => {
  await db?.close();
});

describe("streamedRows", () => {
  it("reads every row of the tenant, in order, in batches of at most STREAM_BATCH", async () => {
    const expected = await db.rawTx.withTenant(tenantA, (tx) =>
      tx.query<Row>("SELECT type, id::text FROM outbox_events WHERE type LIKE 'export.%' ORDER BY type, id"),
    );
    expect(expected).toHaveLength(EVENTS);
    const batches = await collect(
      streamedRows(db, tenantA, { statement: statement(), toRow, limit: undefined, skip: 0 }),
    );
    expect(batches.every((batch) => batch.length > 0 && batch.length <= STREAM_BATCH)).toBe(true);
    expect(batches.length).toBe(Math.ceil(EVENTS / STREAM_BATCH));
    expect(batches.flat()).toEqual(expected);
    const other = await collect(
      streamedRows(db, tenantB, { statement: statement(), toRow, limit: undefined, skip: 0 }),
    );
    expect(other.flat()).toHaveLength(700);
    expect(other.flat().some((row) => expected.some((mine) => mine.id === row.id))).toBe(false);
  });

  it("takes `limit` rows after `skip`, across batches", async () => {
    const all = (
      await collect(streamedRows(db, tenantA, { statement: statement(), toRow, limit: undefined, skip: 0 }))
    ).flat();
    const page = (
      await collect(streamedRows(db, tenantA, { statement: statement(), toRow, limit: 1_234, skip: 999 }))
    ).flat();
    expect(page).toEqual(all.slice(999, 999 + 1_234));
    expect(
      (await collect(streamedRows(db, tenantA, { statement: statement("none."), toRow, limit: 5, skip: 0 })))
        .length,
    ).toBe(0);
  });

  it("lets the connection go when the reader stops after the first batch", async () => {
    // More early stops than the pool has connections (4): one kept by a stopped download would make
    // a later one wait for ever.
    for (let i = 0; i < 6; i++) {
      for await (const batch of streamedRows(db, tenantA, {
        statement: statement(),
        toRow,
        limit: undefined,
        skip: 0,
      })) {
        expect(batch).toHaveLength(STREAM_BATCH);
        break;
      }
    }
    const [count] = await db.rawTx.withTenant(tenantA, (tx) =>
      tx.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox_events"),
    );
    expect(count?.n).toBe(EVENTS);
  });

  it("a statement that fails, fails the first batch", async () => {
    const broken: StreamedStatement<Row> = () => ({
      text: "SELECT type, id::text FROM no_such_table",
      values: [],
    });
    await expect(
      collect(streamedRows(db, tenantA, { statement: broken, toRow, limit: undefined, skip: 0 })),
    ).rejects.toThrow(/no_such_table/);
  });
});
