import { tmpdir } from "node:os";
import { Writable } from "node:stream";
import { provisionTenant, syncPermissions } from "@hisob/core";
import { createOutbox, type Db } from "@hisob/db";
import { createFinanceServices } from "@hisob/finance";
import { listPermissions, newId, type TenantContext } from "@hisob/kernel";
import pg from "pg";
// Not "@hisob/db/testing": its index needs vitest's inject. These helpers do not.
import {
  createTestDbFromTemplate,
  dropTemplate,
  prepareTemplate,
  type TestTemplate,
} from "../packages/db/src/testing/test-databases";
import { median, seconds, withMemorySampling } from "./measure";
import type { Bench, BenchResult } from "./run";

/**
 * The three reports over a ledger of 1,000,000 transactions (two UZS accounts and a USD one, a year of
 * incomes, expenses, transfers and exchanges), through the finance services, beside the raw SQL
 * aggregate each is built on, run with plain `pg` on the same database in the same process. Then
 * the .xlsx download of 100,000 transactions (an account's transactions export), its time and peak
 * memory. Needs DATABASE_URL (a PostgreSQL admin URL); skipped without. `--iterations`: runs per
 * report (median reported; default 5).
 */

const TRANSACTIONS = 1_000_000;
// Small enough that one batch stays well inside the interactive-transaction timeout on a loaded machine.
const BATCH = 20_000;
const EXPORT_ROWS = 100_000;
const DEFAULT_RUNS = 5;

const timeOnce = async (fn: () => Promise<unknown>): Promise<number> => {
  const start = process.hrtime.bigint();
  await fn();
  return seconds(start);
};

/** Warm-up before timing: this many rounds of both sides, or as many as fit in this many seconds. */
const WARMUP_ROUNDS = 200;
const WARMUP_SECONDS = 3;

/**
 * The medians of `runs` runs of each, taking turns (baseline, ours, baseline, …): on a shared machine
 * the load moves within seconds, and both sides must see the same load for their ratio to mean
 * anything. Both are warmed up first, not counted, as a running server is: PostgreSQL plans a
 * prepared statement afresh for its first five runs, and V8 optimises the JavaScript of a call
 * (parsing rows, building the statement) only after some hundred: a statement page took 5.2 ms
 * (median) over its first 40 calls, 3.8 over the next 80 and 2.3 from the 120th on.
 */
const timeAlternating = async (
  runs: number,
  baseline: () => Promise<unknown>,
  ours: () => Promise<unknown>,
): Promise<{ base: number; mine: number }> => {
  const warmupStart = process.hrtime.bigint();
  for (let round = 0; round < WARMUP_ROUNDS && seconds(warmupStart) < WARMUP_SECONDS; round++) {
    await baseline();
    await ours();
  }
  const base: number[] = [];
  const mine: number[] = [];
  for (let i = 0; i < runs; i++) {
    base.push(await timeOnce(baseline));
    mine.push(await timeOnce(ours));
  }
  return { base: median(base), mine: median(mine) };
};

/** A year of postings spread over three accounts, inserted set-based; balances set to match. */
const seedLedger = async (
  db: Db,
  tenantId: string,
  accounts: { a: string; b: string; usd: string },
  userId: string,
) => {
  for (let done = 0; done < TRANSACTIONS; done += BATCH) {
    await db.withTenant(
      tenantId,
      (tx) =>
        tx.$executeRaw`
        INSERT INTO transactions (id, tenant_id, type, amount, destination_amount, exchange_rate, date,
                                  origin_account_id, destination_account_id, comment, created_by)
        SELECT gen_random_uuid(), ${tenantId}::uuid, kind::transaction_type,
               CASE kind WHEN 'exchange' THEN 100 ELSE 1000 + g % 5000 END,
               CASE kind WHEN 'exchange' THEN 1265057 END,
               CASE kind WHEN 'exchange' THEN 12650.57 END,
               DATE '2026-01-01' + (g % 365),
               CASE kind WHEN 'income' THEN NULL WHEN 'expense' THEN ${accounts.a}::uuid
                         WHEN 'transfer' THEN ${accounts.a}::uuid ELSE ${accounts.usd}::uuid END,
               CASE kind WHEN 'income' THEN (CASE WHEN g % 2 = 0 THEN ${accounts.a}::uuid ELSE ${accounts.usd}::uuid END)
                         WHEN 'expense' THEN NULL ELSE ${accounts.b}::uuid END,
               '', ${userId}::uuid
          FROM generate_series(${done + 1}::int, ${done + BATCH}::int) AS g,
               LATERAL (SELECT (ARRAY['income','income','expense','transfer','exchange'])[1 + g % 5] AS kind) k`,
    );
  }
  // Balances as the ledger says (the seed bypasses postings); reports derive opening balances from them.
  await db.withTenant(
    tenantId,
    (tx) =>
      tx.$executeRaw`
      UPDATE money_accounts a SET balance =
        COALESCE((SELECT sum(COALESCE(destination_amount, amount)) FROM transactions t WHERE t.destination_account_id = a.id), 0)
        - COALESCE((SELECT sum(amount) FROM transactions t WHERE t.origin_account_id = a.id), 0),
        allow_overdraft = true
       WHERE a.tenant_id = ${tenantId}::uuid`,
  );
};

export const financeReportsBench: Bench = {
  name: "finance-reports",
  run: async ({ iterations }): Promise<BenchResult> => {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) {
      const message =
        "finance-reports: skipped — set DATABASE_URL to a PostgreSQL admin URL " +
        "(e.g. postgres://postgres@127.0.0.1:5432/postgres).";
      console.log(message);
      return { name: message, rows: [] };
    }
    const runs = iterations ?? DEFAULT_RUNS;
    let template: TestTemplate | undefined;
    let db: Db | undefined;
    let pool: pg.Pool | undefined;
    try {
      template = await prepareTemplate({ adminUrl, tmpDir: tmpdir() });
      db = await createTestDbFromTemplate(template, { poolSize: 4 });
      const appDb = db;
      const outbox = createOutbox(appDb, { unhandled: "settle" }); // as the server's
      await syncPermissions(appDb);
      const finance = createFinanceServices({ db: appDb, outbox });
      const tenant = await provisionTenant({ db: appDb, outbox }, { name: "Bench", isPlatform: false });
      await appDb.withTenant(tenant.id, (tx) =>
        tx.tenantCurrency.create({ data: { tenantId: tenant.id, currencyCode: "USD" } }),
      );
      const userId = newId();
      const ctx: TenantContext = {
        tenantId: tenant.id,
        actor: { userId, permissions: new Set(listPermissions().map((p) => p.name)) },
        locale: "en",
        requestId: "bench",
      };
      const accounts = {
        a: (await finance.accounts.create(ctx, { name: "A", currency: "UZS", allowOverdraft: true })).id,
        b: (await finance.accounts.create(ctx, { name: "B", currency: "UZS", allowOverdraft: true })).id,
        usd: (await finance.accounts.create(ctx, { name: "USD", currency: "USD", allowOverdraft: true })).id,
      };
      const seedStart = process.hrtime.bigint();
      await seedLedger(appDb, tenant.id, accounts, userId);
      const seedSeconds = seconds(seedStart);

      const [{ name }] = await appDb.withTenant(
        tenant.id,
        (tx) => tx.$queryRaw<[{ name: string }]>`SELECT current_database() AS name`,
      );
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
      const raw = pool;
      // The tables as autovacuum would leave them, vacuumed and analysed as the owner (the
      // application's role may do neither): without statistics both sides get nested-loop plans no
      // real database would run, and the seed's fifty batches leave each balance checkpoint row
      // with fifty dead versions that autovacuum would have removed within a minute.
      await raw.query("VACUUM ANALYZE transactions, money_accounts, account_day_totals, payments, expenses");
      const period = { startDate: "2026-01-01", endDate: "2026-12-31" };

      // Baselines: the bare aggregate each report is built on, no grouping sets, no reshaping.
      const rawIncome = () =>
        raw.query(
          `SELECT a.currency_code, t.type, sum(t.amount) FROM transactions t
             JOIN money_accounts a ON a.id = COALESCE(t.destination_account_id, t.origin_account_id)
            WHERE t.tenant_id = $1 AND t.type IN ('income', 'expense') AND t.date BETWEEN $2 AND $3
            GROUP BY 1, 2`,
          [tenant.id, period.startDate, period.endDate],
        );
      const rawCashflow = () =>
        raw.query(
          `SELECT account_id, date_trunc('month', date::timestamp) AS m, sum(inflow), sum(outflow) FROM (
             SELECT destination_account_id AS account_id, date, COALESCE(destination_amount, amount) AS inflow, 0 AS outflow
               FROM transactions WHERE tenant_id = $1 AND destination_account_id IS NOT NULL AND date BETWEEN $2 AND $3
             UNION ALL
             SELECT origin_account_id, date, 0, amount
               FROM transactions WHERE tenant_id = $1 AND origin_account_id IS NOT NULL AND date BETWEEN $2 AND $3) l
           GROUP BY 1, 2`,
          [tenant.id, period.startDate, period.endDate],
        );
      const rawStatement = () =>
        raw.query(
          `SELECT id, date, sum(change) OVER (ORDER BY date, id) FROM (
             SELECT id, date, CASE WHEN origin_account_id = $2 THEN -amount ELSE COALESCE(destination_amount, amount) END AS change
               FROM transactions WHERE tenant_id = $1 AND (origin_account_id = $2 OR destination_account_id = $2)
                AND date BETWEEN $3 AND $4) e
           ORDER BY date, id LIMIT 500`,
          [tenant.id, accounts.a, period.startDate, period.endDate],
        );

      // The same cut with the columns a statement page shows for each entry (type, comment, counter
      // account, counterparty, reversal, its change): what of the page's cost is its width, not its
      // summary or its document lookups. Reported beside the bare running sum, not instead of it.
      const rawStatementColumns = () =>
        raw.query(
          `SELECT id, date, type, comment, counter_account_id, counterparty_id, reversal_of_id, reversal_reason,
                  change, sum(change) OVER (ORDER BY date, id) FROM (
             SELECT id, date, type, comment,
                    CASE WHEN origin_account_id = $2 THEN destination_account_id ELSE origin_account_id END AS counter_account_id,
                    counterparty_id, reversal_of_id, reversal_reason,
                    CASE WHEN origin_account_id = $2 THEN -amount ELSE COALESCE(destination_amount, amount) END AS change
               FROM transactions WHERE tenant_id = $1 AND (origin_account_id = $2 OR destination_account_id = $2)
                AND date BETWEEN $3 AND $4) e
           ORDER BY date, id LIMIT 500`,
          [tenant.id, accounts.a, period.startDate, period.endDate],
        );

      const timings: Array<Record<string, string>> = [];
      const pair = async (label: string, baseline: () => Promise<unknown>, ours: () => Promise<unknown>) => {
        const { base, mine } = await timeAlternating(runs, baseline, ours);
        timings.push({
          report: label,
          "raw SQL ms": (base * 1000).toFixed(1),
          "service ms": (mine * 1000).toFixed(1),
          "× raw SQL": (mine / base).toFixed(2),
        });
      };
      await pair("income statement, 1 year", rawIncome, () => finance.reports.incomeStatement(ctx, period));
      await pair("cash flow by month, 1 year", rawCashflow, () =>
        finance.reports.cashflow(ctx, { ...period, granularity: "month" }),
      );
      const firstPage = () => finance.reports.accountStatement(ctx, accounts.a, { ...period, limit: 500 });
      await pair("account statement, first 500 of the year", rawStatement, firstPage);
      await pair(
        "account statement, first 500, beside the bare cut with its columns",
        rawStatementColumns,
        firstPage,
      );

      // The .xlsx download of 100k transactions into a byte-counting sink.
      const exportRun = await withMemorySampling(async (sample) => {
        let bytes = 0;
        const sink = new Writable({
          write(chunk: Buffer, _encoding, done) {
            bytes += chunk.length;
            sample();
            done();
          },
        });
        const prepared = await finance.exports.transactions(ctx, accounts.b, {
          limit: EXPORT_ROWS,
          order: "asc",
        });
        const { rowCount } = await prepared.write(sink);
        return { rowCount, bytes };
      });
      const mb = (value: number) => (value / 1024 / 1024).toFixed(1);
      const reconcile = await finance.reconcile.reconcile(ctx);
      return {
        name: `finance-reports (PostgreSQL, ${TRANSACTIONS.toLocaleString("en")} transactions, median of ${runs})`,
        rows: [],
        tables: [
          { title: "Reports (median wall time)", rows: timings },
          {
            title: `.xlsx download of ${EXPORT_ROWS.toLocaleString("en")} transactions`,
            rows: [
              {
                rows: exportRun.result.rowCount,
                "file MB": mb(exportRun.result.bytes),
                seconds: exportRun.seconds.toFixed(2),
                "peak Δrss MB": mb(exportRun.peakRss),
                "peak Δheap MB": mb(exportRun.peakHeap),
                "peak Δexternal MB": mb(exportRun.peakExternal),
                "longest stall s": exportRun.longestStall.toFixed(2),
              },
            ],
          },
          {
            title: "Setup and checks",
            rows: [
              {
                item: `seed ${TRANSACTIONS.toLocaleString("en")} transactions (s)`,
                value: seedSeconds.toFixed(1),
              },
              { item: "reconcile: accounts with drift", value: reconcile.drift.length },
            ],
          },
        ],
      };
    } finally {
      await pool?.end();
      await db?.close();
      if (template) await dropTemplate(template);
    }
  },
};
