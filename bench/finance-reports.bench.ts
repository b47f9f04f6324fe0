import { tmpdir } from "node:os";
import { Writable } from "node:stream";
import { provisionTenant, syncPermissions } from "@hisob/core";
import { createOutbox, type Db, type Outbox, Prisma } from "@hisob/db";
import { createFinanceServices } from "@hisob/finance";
import { listPermissions, newId, type TenantContext } from "@hisob/kernel";
import pg from "pg";
// Not "@hisob/db/testing": its index needs vitest's inject. These helpers do not.
import {
  createTestDbFromTemplate,
  dropTemplate,
  openKeptDatabase,
  prepareTemplate,
  type TestTemplate,
} from "../packages/db/src/testing/test-databases";
import { median, seconds, withMemorySampling } from "./measure";
import type { Figure } from "./report";
import type { Bench, BenchResult } from "./run";

/**
 * The three reports over a ledger of 1,000,000 transactions (two UZS accounts and a USD one, a year of
 * incomes, expenses, transfers and exchanges), through the finance services, beside the raw SQL
 * aggregate each is built on, run with plain `pg` on the same database in the same process; also the
 * income statement compared with the previous year, the cash flow by week, the aging of 100,000 debts
 * and the balances of 1,000 accounts on a day, each beside its bare SQL. Then
 * the .xlsx download of 100,000 transactions (an account's transactions export), its time and peak
 * memory. Needs DATABASE_URL (a PostgreSQL admin URL); skipped without. `--iterations`: runs per
 * report (median reported; default 5). `FINANCE_REPORTS_DB=<name>`: seed that database once and keep
 * it, later runs measure it as it is (migrated to the current schema, vacuumed and analysed again) —
 * the seed takes ten minutes on the loaded machine, and nothing here writes to the book.
 */

const TRANSACTIONS = 1_000_000;
const BATCH = 20_000;
const EXPORT_ROWS = 100_000;
/** The aging report's debts, and the accounts the balances-on-a-date report covers. */
const DEBTS = 100_000;
const COUNTERPARTIES = 500;
const ACCOUNTS = 1_000;
/** Entries on each account beyond the ledger's three (a year of them, spread over its days). */
const ENTRIES_PER_EXTRA_ACCOUNT = 100;
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
export const timeAlternating = async (
  runs: number,
  baseline: () => Promise<unknown>,
  ours: () => Promise<unknown>,
): Promise<{ base: number; mine: number; ratios: number[] }> => {
  const warmupStart = process.hrtime.bigint();
  for (let round = 0; round < WARMUP_ROUNDS && seconds(warmupStart) < WARMUP_SECONDS; round++) {
    await baseline();
    await ours();
  }
  const base: number[] = [];
  const mine: number[] = [];
  // Rounds alternate which side goes first; each round's ratio is ours ÷ the baseline of that round.
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      base.push(await timeOnce(baseline));
      mine.push(await timeOnce(ours));
    } else {
      mine.push(await timeOnce(ours));
      base.push(await timeOnce(baseline));
    }
  }
  const ratios = mine.map((value, index) => value / (base[index] ?? Number.NaN));
  return { base: median(base), mine: median(mine), ratios };
};

/**
 * An organization that keeps UZS and USD, a user of it (the audit log takes entries only from one) and
 * that user's context with every permission.
 */
export const provisionBenchTenant = async (appDb: Db, outbox: Outbox, name = "Bench") => {
  const tenant = await provisionTenant({ db: appDb, outbox }, { name, isPlatform: false });
  await appDb.withTenant(tenant.id, (tx) =>
    tx.tenantCurrency.create({ data: { tenantId: tenant.id, currencyCode: "USD" } }),
  );
  const userId = newId();
  await appDb.withTenant(tenant.id, (tx) =>
    tx.user.create({
      data: {
        id: userId,
        tenantId: tenant.id,
        email: `bench-${userId}@firm.uz`,
        firstName: "Bench",
        lastName: "User",
      },
    }),
  );
  return { tenant, userId, ctx: benchContext(tenant.id, userId) };
};

/** A user's context with every permission. */
export const benchContext = (tenantId: string, userId: string): TenantContext => ({
  tenantId,
  actor: { userId, permissions: new Set(listPermissions().map((p) => p.name)) },
  locale: "en",
  requestId: "bench",
});

/**
 * One seeding statement in its own driver transaction in the tenant (`db.rawTx`, the tenancy wall of
 * `withTenant`): Prisma's interactive transactions end after 15 s, which one batch of 20,000 rows
 * outlasted on the loaded machine (37 s).
 */
const seed = (db: Db, tenantId: string, statement: Prisma.Sql) =>
  db.rawTx.withTenant(tenantId, (tx) => tx.query(statement.text, statement.values));

/** A year of postings spread over three accounts, inserted set-based; balances set to match. */
export const seedLedger = async (
  db: Db,
  tenantId: string,
  accounts: { a: string; b: string; usd: string },
  userId: string,
) => {
  for (let done = 0; done < TRANSACTIONS; done += BATCH) {
    await seed(
      db,
      tenantId,
      Prisma.sql`
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
  await seed(
    db,
    tenantId,
    Prisma.sql`
      UPDATE money_accounts a SET balance =
        COALESCE((SELECT sum(COALESCE(destination_amount, amount)) FROM transactions t WHERE t.tenant_id = a.tenant_id AND t.destination_account_id = a.id), 0)
        - COALESCE((SELECT sum(amount) FROM transactions t WHERE t.tenant_id = a.tenant_id AND t.origin_account_id = a.id), 0),
        allow_overdraft = true
       WHERE a.tenant_id = ${tenantId}::uuid`,
  );
};

/**
 * 997 more UZS accounts (1,000 in all) with a year of incomes each, and 100,000 debts (receivable and
 * payable, due over the year and the one before) over 500 counterparties, set-based. The debts have
 * no settlements (a settlement needs a posted payment or expense): the aging report still probes
 * each debt's settlements, through the same index.
 */
export const seedAccountsAndDebts = async (db: Db, tenantId: string, userId: string) => {
  // One statement per transaction, in slices.
  const run = (statement: Prisma.Sql) => seed(db, tenantId, statement);
  await run(
    Prisma.sql`
      INSERT INTO money_accounts (id, tenant_id, name, currency_code, allow_overdraft, updated_at)
      SELECT gen_random_uuid(), ${tenantId}::uuid, 'Account ' || lpad(g::text, 4, '0'), 'UZS', true, now()
        FROM generate_series(4, ${ACCOUNTS}::int) AS g`,
  );
  for (let first = 4; first <= ACCOUNTS; first += 100) {
    const last = Math.min(ACCOUNTS, first + 99);
    await run(
      Prisma.sql`
        INSERT INTO transactions (id, tenant_id, type, amount, date, destination_account_id, comment, created_by)
        SELECT gen_random_uuid(), ${tenantId}::uuid, 'income', 1000 + g % 5000,
               DATE '2026-01-01' + ((g * 7 + a.n) % 365)::int, a.id, '', ${userId}::uuid
          FROM (SELECT id, substr(name, 9)::int AS n FROM money_accounts
                 WHERE tenant_id = ${tenantId}::uuid AND name LIKE 'Account %'
                   AND substr(name, 9)::int BETWEEN ${first}::int AND ${last}::int) a,
               generate_series(1, ${ENTRIES_PER_EXTRA_ACCOUNT}::int) AS g`,
    );
  }
  await run(
    Prisma.sql`
      UPDATE money_accounts a SET balance =
        (SELECT COALESCE(sum(amount), 0) FROM transactions t WHERE t.tenant_id = a.tenant_id AND t.destination_account_id = a.id)
       WHERE a.tenant_id = ${tenantId}::uuid AND a.name LIKE 'Account %'`,
  );
  await run(
    Prisma.sql`
      INSERT INTO counterparties (id, tenant_id, name, updated_at)
      SELECT gen_random_uuid(), ${tenantId}::uuid, 'Counterparty ' || lpad(g::text, 3, '0'), now()
        FROM generate_series(1, ${COUNTERPARTIES}::int) AS g`,
  );
  for (let first = 1; first <= DEBTS; first += 10_000) {
    await run(
      Prisma.sql`
        INSERT INTO debts (id, tenant_id, kind, counterparty_id, amount, outstanding, currency_code, due_date,
                           status, created_by, created_at, updated_at)
        SELECT gen_random_uuid(), ${tenantId}::uuid,
               (CASE WHEN g % 2 = 0 THEN 'receivable' ELSE 'payable' END)::debt_kind,
               c.ids[1 + g % ${COUNTERPARTIES}::int], 10000 + g % 90000, 10000 + g % 90000,
               CASE WHEN g % 4 = 0 THEN 'USD' ELSE 'UZS' END,
               CASE WHEN g % 10 = 0 THEN NULL ELSE DATE '2025-01-01' + g % 730 END,
               'pending', ${userId}::uuid, timestamptz '2025-01-01 00:00:00Z', now()
          FROM generate_series(${first}::int, ${first + 9_999}::int) AS g,
               (SELECT array_agg(id ORDER BY name) AS ids FROM counterparties WHERE tenant_id = ${tenantId}::uuid) c`,
    );
  }
};

/**
 * The bench's tenant, its user's context and its three ledger accounts in a database an earlier run
 * seeded (`FINANCE_REPORTS_DB`), read as the database's owner.
 */
const keptBook = async (raw: pg.Pool) => {
  const tenants = await raw.query<{ id: string }>(
    "SELECT id FROM tenants WHERE name = 'Bench' AND NOT is_platform",
  );
  const tenantId = tenants.rows[0]?.id;
  if (tenants.rows.length !== 1 || !tenantId)
    throw new Error("The kept database holds no single Bench tenant: drop it");
  const users = await raw.query<{ id: string }>("SELECT id FROM users WHERE tenant_id = $1", [tenantId]);
  const named = await raw.query<{ id: string; name: string }>(
    "SELECT id, name FROM money_accounts WHERE tenant_id = $1 AND name IN ('A', 'B', 'USD')",
    [tenantId],
  );
  const idOf = (name: string) => {
    const id = named.rows.find((row) => row.name === name)?.id;
    if (!id) throw new Error(`The kept database has no account ${name}: drop it`);
    return id;
  };
  const userId = users.rows[0]?.id;
  if (!userId) throw new Error("The kept database has no bench user: drop it");
  const ctx: TenantContext = {
    tenantId,
    actor: { userId, permissions: new Set(listPermissions().map((p) => p.name)) },
    locale: "en",
    requestId: "bench",
  };
  return { tenant: { id: tenantId }, ctx, accounts: { a: idOf("A"), b: idOf("B"), usd: idOf("USD") } };
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
    const kept = process.env.FINANCE_REPORTS_DB;
    try {
      let created = true;
      if (kept) {
        ({ db, created } = await openKeptDatabase({ adminUrl, name: kept, poolSize: 4 }));
      } else {
        template = await prepareTemplate({ adminUrl, tmpDir: tmpdir() });
        db = await createTestDbFromTemplate(template, { poolSize: 4 });
      }
      const appDb = db;
      const outbox = createOutbox(appDb, { unhandled: "settle" }); // as the server's
      const finance = createFinanceServices({ db: appDb, outbox });
      const [{ name }] = await appDb.withPlatform(
        (tx) => tx.$queryRaw<[{ name: string }]>`SELECT current_database() AS name`,
      );
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      // The baseline's connections get the application's session settings (create-db.ts: TimeZone=UTC,
      // jit=off), so both sides run with the same planner settings.
      pool = new pg.Pool({ connectionString: url.toString(), max: 2, options: "-c TimeZone=UTC -c jit=off" });
      const raw = pool;

      let seedSeconds: number | undefined;
      let book: Awaited<ReturnType<typeof keptBook>>;
      if (created) {
        await syncPermissions(appDb);
        const { tenant, userId, ctx } = await provisionBenchTenant(appDb, outbox);
        const accounts = {
          a: (await finance.accounts.create(ctx, { name: "A", currency: "UZS", allowOverdraft: true })).id,
          b: (await finance.accounts.create(ctx, { name: "B", currency: "UZS", allowOverdraft: true })).id,
          usd: (await finance.accounts.create(ctx, { name: "USD", currency: "USD", allowOverdraft: true }))
            .id,
        };
        // The ledger is the cash books of before the general ledger (decision 0093), as the ledger
        // bench seeds its history: without journal lines (the ledger's row trigger off while it is
        // seeded; no report here reads them). Through the row trigger one batch of 20,000 ran for
        // over 7 minutes on the loaded machine; the balance checkpoints' trigger stays on.
        const seedStart = process.hrtime.bigint();
        await raw.query("ALTER TABLE transactions DISABLE TRIGGER transactions_gl");
        try {
          await seedLedger(appDb, tenant.id, accounts, userId);
          await seedAccountsAndDebts(appDb, tenant.id, userId);
        } finally {
          await raw.query("ALTER TABLE transactions ENABLE TRIGGER transactions_gl");
        }
        seedSeconds = seconds(seedStart);
        book = { tenant, ctx, accounts };
      } else {
        book = await keptBook(raw);
      }
      const { tenant, ctx, accounts } = book;
      // The tables as autovacuum would leave them, vacuumed and analysed as the owner (the
      // application's role may do neither): without statistics both sides get nested-loop plans no
      // real database would run, and the seed's fifty batches leave each balance checkpoint row
      // with fifty dead versions that autovacuum would have removed within a minute.
      await raw.query(
        "VACUUM ANALYZE transactions, money_accounts, account_day_totals, payments, expenses, debts, debt_settlements, counterparties",
      );
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

      const previousYear = { startDate: "2025-01-01", endDate: "2025-12-31" };
      const rawIncomeOf = (from: string, to: string) =>
        raw.query(
          `SELECT a.currency_code, t.type, sum(t.amount) FROM transactions t
             JOIN money_accounts a ON a.id = COALESCE(t.destination_account_id, t.origin_account_id)
            WHERE t.tenant_id = $1 AND t.type IN ('income', 'expense') AND t.date BETWEEN $2 AND $3
            GROUP BY 1, 2`,
          [tenant.id, from, to],
        );
      // The year and the one before it: the same bare aggregate, once per period.
      const rawIncomeCompared = async () => {
        await rawIncomeOf(period.startDate, period.endDate);
        await rawIncomeOf(previousYear.startDate, previousYear.endDate);
      };
      const rawCashflowWeeks = () =>
        raw.query(
          `SELECT account_id, date_trunc('week', date::timestamp) AS w, sum(inflow), sum(outflow) FROM (
             SELECT destination_account_id AS account_id, date, COALESCE(destination_amount, amount) AS inflow, 0 AS outflow
               FROM transactions WHERE tenant_id = $1 AND destination_account_id IS NOT NULL AND date BETWEEN $2 AND $3
             UNION ALL
             SELECT origin_account_id, date, 0, amount
               FROM transactions WHERE tenant_id = $1 AND origin_account_id IS NOT NULL AND date BETWEEN $2 AND $3) l
           GROUP BY 1, 2`,
          [tenant.id, period.startDate, period.endDate],
        );
      const asOf = "2026-06-30";
      // What is left on each debt at the end of the day, per kind, counterparty and currency, in the
      // five buckets: no totals, no names.
      const rawAging = () =>
        raw.query(
          `SELECT kind, counterparty_id, currency_code, count(*),
                  sum(due) FILTER (WHERE late IS NULL OR late <= 0), sum(due) FILTER (WHERE late BETWEEN 1 AND 30),
                  sum(due) FILTER (WHERE late BETWEEN 31 AND 60), sum(due) FILTER (WHERE late BETWEEN 61 AND 90),
                  sum(due) FILTER (WHERE late > 90)
             FROM (SELECT d.kind, d.counterparty_id, d.currency_code, $2::date - d.due_date AS late,
                          d.amount - COALESCE((SELECT sum(s.amount) FROM debt_settlements s
                                                WHERE s.tenant_id = d.tenant_id AND s.debt_id = d.id AND s.date <= $2::date), 0) AS due
                     FROM debts d
                    WHERE d.tenant_id = $1 AND (d.created_at AT TIME ZONE 'UTC')::date <= $2::date
                      AND NOT (d.status = 'written_off' AND (d.written_off_at AT TIME ZONE 'UTC')::date <= $2::date)) o
            WHERE due > 0
            GROUP BY 1, 2, 3`,
          [tenant.id, asOf],
        );
      // Each account's balance at the end of the day: the stored balance minus the later day totals,
      // of the accounts that held something by then (an entry or an opening balance on or before the
      // day, as the report has it: without that probe the baseline answered for accounts the report
      // leaves out, and did half the index work). No names, no per-currency totals, no order.
      const rawBalances = () =>
        raw.query(
          `SELECT a.id, a.currency_code, a.balance - COALESCE((SELECT sum(d.change + d.opening) FROM account_day_totals d
                                                                 WHERE d.tenant_id = a.tenant_id AND d.account_id = a.id
                                                                   AND d.date > $2::date), 0)
             FROM money_accounts a WHERE a.tenant_id = $1
              AND EXISTS (SELECT 1 FROM account_day_totals d
                           WHERE d.tenant_id = a.tenant_id AND d.account_id = a.id AND d.date <= $2::date
                             AND (d.entries > 0 OR d.opening <> 0))`,
          [tenant.id, asOf],
        );

      const timings: Array<Record<string, string>> = [];
      const figures: Figure[] = [];
      const pair = async (label: string, baseline: () => Promise<unknown>, ours: () => Promise<unknown>) => {
        const { base, mine, ratios } = await timeAlternating(runs, baseline, ours);
        const low = Math.min(...ratios);
        const high = Math.max(...ratios);
        timings.push({
          report: label,
          "raw SQL ms": (base * 1000).toFixed(1),
          "service ms": (mine * 1000).toFixed(1),
          "× raw SQL (median of rounds)": median(ratios).toFixed(2),
          "spread (rounds)": `${low.toFixed(2)}–${high.toFixed(2)}`,
          "per round": ratios.map((ratio) => ratio.toFixed(2)).join(", "),
        });
        figures.push({
          case: `${label}: service vs its bare SQL, ${runs} alternating rounds (target ≤ 1.3)`,
          ours: `${(mine * 1000).toFixed(1)} ms`,
          baseline: `${(base * 1000).toFixed(1)} ms`,
          ratio: median(ratios),
          spread: [low, high],
          better: "lower",
        });
      };
      await pair("income statement, 1 year", rawIncome, () => finance.reports.incomeStatement(ctx, period));
      await pair("cash flow by month, 1 year", rawCashflow, () =>
        finance.reports.cashflow(ctx, { ...period, granularity: "month" }),
      );
      await pair("income statement, 1 year, compared with the previous year", rawIncomeCompared, () =>
        finance.reports.incomeStatement(ctx, { ...period, compare: "previousYear" }),
      );
      await pair("cash flow by week, 1 year", rawCashflowWeeks, () =>
        finance.reports.cashflow(ctx, { ...period, granularity: "week" }),
      );
      await pair(`aging of ${DEBTS.toLocaleString("en")} debts on a day`, rawAging, () =>
        finance.reports.aging(ctx, { asOf }),
      );
      await pair(`balances of ${ACCOUNTS.toLocaleString("en")} accounts on a day`, rawBalances, () =>
        finance.reports.balances(ctx, { date: asOf }),
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
        figures,
        tables: [
          {
            title: "Reports (median wall time; ratio per round, rounds alternate which side goes first)",
            rows: timings,
          },
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
                item: `seed ${TRANSACTIONS.toLocaleString("en")} transactions, ${(ACCOUNTS - 3).toLocaleString("en")} more accounts × ${ENTRIES_PER_EXTRA_ACCOUNT} entries, ${DEBTS.toLocaleString("en")} debts (s)`,
                value:
                  seedSeconds === undefined
                    ? `kept database ${kept}, seeded by an earlier run`
                    : seedSeconds.toFixed(1),
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
