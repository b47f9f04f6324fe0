import type { AddressInfo } from "node:net";
import { connectPostgres, testAdminUrl, testDatabaseKind } from "@hisob/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "./testing/test-app";

/*
 * A report or a report's .xlsx whose client goes away stops on the server: the request's signal
 * cancels the database statement it was running (docs/decisions/0088-report-filters-and-comparison.md).
 * The statement is made to wait — another session holds a lock on the ledger — so it is still
 * running when the client aborts; the lock is held all along, so the statement can only end by
 * being cancelled. PostgreSQL only (pg_stat_activity; PGlite runs in the process and cannot be
 * interrupted mid-statement).
 */

const onPostgres = testDatabaseKind() === "postgres";

type Activity = { pid: number; state: string; query: string; wait_event_type: string | null };

describe.skipIf(!onPostgres)("a report stops when its client goes away (PostgreSQL)", () => {
  let t: TestApp;
  let admin: SeededUser;
  let base = "";
  let database = "";
  let locker: Awaited<ReturnType<typeof connectPostgres>>;
  let watcher: Awaited<ReturnType<typeof connectPostgres>>;
  let accountId = "";

  beforeAll(async () => {
    t = await createTestApp({ poolSize: 1 });
    const tenant = await t.createTenant();
    admin = await t.createUser(tenant.id, "admin");
    const account = await t.app.inject({
      method: "POST",
      url: "/finance/accounts",
      headers: admin.headers,
      payload: { name: "Cash", currency: "UZS" },
    });
    expect(account.statusCode, account.body).toBe(201);
    accountId = account.json().id;
    const payment = await t.app.inject({
      method: "POST",
      url: "/finance/payments",
      headers: admin.headers,
      payload: { accountId: account.json().id, amount: "1000", date: "2026-02-10" },
    });
    expect(payment.statusCode, payment.body).toBe(201);
    const [row] = await t.db.withPlatform(
      (tx) => tx.$queryRaw<Array<{ name: string }>>`SELECT current_database() AS name`,
    );
    database = row?.name ?? "";
    const url = new URL(testAdminUrl() ?? "");
    url.pathname = `/${database}`;
    locker = await connectPostgres(url.toString());
    watcher = await connectPostgres(url.toString());
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await locker?.close();
    await watcher?.close();
    await t?.close();
  });

  /** The server's statements reading the ledger that wait for the lock. */
  const waiting = () =>
    watcher.query<Activity>(
      `SELECT pid, state, query, wait_event_type FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid() AND state = 'active'
          AND wait_event_type = 'Lock' AND query LIKE '%transactions%'`,
      [database],
    );
  const until = async <T>(what: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const value = await what();
      if (done(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const abortWhileRunning = async (path: string) => {
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE transactions IN ACCESS EXCLUSIVE MODE");
    try {
      const client = new AbortController();
      const request = fetch(`${base}${path}`, {
        headers: admin.headers as Record<string, string>,
        signal: client.signal,
      }).catch((error: unknown) => error);
      // The report's statement is running (waiting for the lock) …
      const running = await until(waiting, (rows) => rows.length === 1);
      expect(running, "the report's statement should be running").toHaveLength(1);
      const pid = running[0]?.pid;
      // … the client goes away …
      client.abort();
      expect(String(await request)).toMatch(/abort/i);
      // … and, with the lock still held, the statement is gone: cancelled, its connection idle again.
      expect(await until(waiting, (rows) => rows.length === 0)).toEqual([]);
      const [backend] = await watcher.query<Activity>(
        "SELECT pid, state, query, wait_event_type FROM pg_stat_activity WHERE pid = $1",
        [pid],
      );
      expect(backend?.state, "the connection goes back to the pool").toBe("idle");
    } finally {
      await locker.query("ROLLBACK");
    }
    // The same report answers once nobody holds the ledger.
    const again = await fetch(`${base}${path}`, { headers: admin.headers as Record<string, string> });
    expect(again.status).toBe(200);
    await again.arrayBuffer();
  };

  it("the income statement's query is cancelled (the driver's, with its comparison in the same statement)", async () => {
    await abortWhileRunning(
      "/finance/reports/income-statement?startDate=2026-01-01&endDate=2026-12-31&compare=previousYear",
    );
  });

  it("the cash flow's .xlsx: the report's query is cancelled and no workbook is written (the driver's)", async () => {
    await abortWhileRunning("/finance/reports/cashflow/export?startDate=2026-01-01&endDate=2026-12-31");
  });

  it("an account's transactions .xlsx: its cursor is cancelled and the connection freed (one in the pool)", async () => {
    await abortWhileRunning(`/finance/accounts/${accountId}/transactions/export`);
  });

  it("a report asked over tRPC (the app's way) is cancelled too", async () => {
    const input = encodeURIComponent(JSON.stringify({ startDate: "2026-01-01", endDate: "2026-12-31" }));
    await abortWhileRunning(`/trpc/reports.cashflow?input=${input}`);
  });
});
