import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { provisionTenant, syncPermissions } from "@hisob/core";
import { createDb, createOutbox, type Db } from "@hisob/db";
import { createFinanceServices } from "@hisob/finance";
import { listPermissions, newId, type TenantContext } from "@hisob/kernel";
import pg from "pg";
import {
  createTestDbFromTemplate,
  prepareTemplate,
  TEST_OWNER_ROLE,
} from "../packages/db/src/testing/test-databases";
import { cashflowSql, periodCount } from "../packages/finance/src/reports/cashflow.report";
import { incomeStatementSql } from "../packages/finance/src/reports/income-statement.report";
import { seedAccountsAndDebts, seedLedger } from "./finance-reports.bench";
import { seconds } from "./measure";

/*
 * Where a report's time goes, over the finance-reports bench's ledger (1,000,000 transactions, 1,000
 * accounts): the service beside the bench's bare SQL in alternating runs, EXPLAIN ANALYZE of both
 * statements, and a V8 CPU profile of the service's runs (its self time by function, top 25).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres [REPORTS_DB=<name>] [RUNS=5] \
 *     [ONLY=income|cashflow-week|cashflow-month] npx tsx bench/profile-reports.ts
 *
 * Without REPORTS_DB it seeds a new database and keeps it (its name is printed; drop it when done);
 * with it, it reuses that one. Not a benchmark: `npm run bench -- --only finance-reports` is the record.
 */

const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) throw new Error("Set DATABASE_URL to a PostgreSQL admin URL");
const RUNS = Number(process.env.RUNS ?? 5);
const ONLY = process.env.ONLY;

const ownerUrl = (database: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  url.username = TEST_OWNER_ROLE;
  url.password = TEST_OWNER_ROLE;
  return url.toString();
};

const open = async (): Promise<{ db: Db; name: string }> => {
  if (process.env.REPORTS_DB) {
    const name = process.env.REPORTS_DB;
    return { db: await createDb({ databaseUrl: ownerUrl(name), dataDir: "", poolSize: 4 }), name };
  }
  const template = await prepareTemplate({ adminUrl, tmpDir: tmpdir() });
  const db = await createTestDbFromTemplate(template, { poolSize: 4 });
  const [{ name }] = (await db.rawTx.withPlatform((tx) =>
    tx.query<{ name: string }>("SELECT current_database() AS name"),
  )) as [{ name: string }];
  const outbox = createOutbox(db, { unhandled: "settle" });
  await syncPermissions(db);
  const finance = createFinanceServices({ db, outbox });
  const tenant = await provisionTenant({ db, outbox }, { name: "Bench", isPlatform: false });
  await db.withTenant(tenant.id, (tx) =>
    tx.tenantCurrency.create({ data: { tenantId: tenant.id, currencyCode: "USD" } }),
  );
  const userId = newId();
  await db.withTenant(tenant.id, (tx) =>
    tx.user.create({
      data: {
        id: userId,
        tenantId: tenant.id,
        email: `bench-${userId}@firm.uz`,
        firstName: "B",
        lastName: "U",
      },
    }),
  );
  const ctx = contextOf(tenant.id, userId);
  const accounts = {
    a: (await finance.accounts.create(ctx, { name: "A", currency: "UZS", allowOverdraft: true })).id,
    b: (await finance.accounts.create(ctx, { name: "B", currency: "UZS", allowOverdraft: true })).id,
    usd: (await finance.accounts.create(ctx, { name: "USD", currency: "USD", allowOverdraft: true })).id,
  };
  const start = process.hrtime.bigint();
  await seedLedger(db, tenant.id, accounts, userId);
  await seedAccountsAndDebts(db, tenant.id, userId);
  console.log(`seeded ${name} in ${seconds(start).toFixed(0)} s (kept: drop it when done)`);
  const admin = new pg.Client({ connectionString: new URL(`/${name}`, adminUrl).toString() });
  await admin.connect();
  await admin.query(
    "VACUUM ANALYZE transactions, money_accounts, account_day_totals, payments, expenses, debts, debt_settlements, counterparties",
  );
  await admin.end();
  return { db, name };
};

const contextOf = (tenantId: string, userId: string): TenantContext => ({
  tenantId,
  actor: { userId, permissions: new Set(listPermissions().map((p) => p.name)) },
  locale: "en",
  requestId: "profile",
});

const main = async () => {
  const { db, name } = await open();
  const admin = new pg.Pool({
    connectionString: new URL(`/${name}`, adminUrl).toString(),
    max: 2,
    options: "-c TimeZone=UTC -c jit=off",
  });
  const [tenant] = (
    await admin.query<{ id: string; user_id: string }>(
      "SELECT t.id, (SELECT u.id FROM users u WHERE u.tenant_id = t.id LIMIT 1) AS user_id FROM tenants t WHERE t.name = 'Bench'",
    )
  ).rows;
  if (!tenant) throw new Error("no Bench tenant");
  const ctx = contextOf(tenant.id, tenant.user_id);
  const finance = createFinanceServices({ db, outbox: createOutbox(db, { unhandled: "settle" }) });
  const period = { startDate: "2026-01-01", endDate: "2026-12-31" };
  const values = [tenant.id, period.startDate, period.endDate];
  const rawCashflow = (
    unit: string,
  ) => `SELECT account_id, date_trunc('${unit}', date::timestamp) AS m, sum(inflow), sum(outflow) FROM (
      SELECT destination_account_id AS account_id, date, COALESCE(destination_amount, amount) AS inflow, 0 AS outflow
        FROM transactions WHERE tenant_id = $1 AND destination_account_id IS NOT NULL AND date BETWEEN $2 AND $3
      UNION ALL
      SELECT origin_account_id, date, 0, amount
        FROM transactions WHERE tenant_id = $1 AND origin_account_id IS NOT NULL AND date BETWEEN $2 AND $3) l
    GROUP BY 1, 2`;
  const cases = [
    {
      name: "income",
      raw: `SELECT a.currency_code, t.type, sum(t.amount) FROM transactions t
              JOIN money_accounts a ON a.id = COALESCE(t.destination_account_id, t.origin_account_id)
             WHERE t.tenant_id = $1 AND t.type IN ('income', 'expense') AND t.date BETWEEN $2 AND $3
             GROUP BY 1, 2`,
      ours: () => finance.reports.incomeStatement(ctx, period),
      oursSql: () =>
        incomeStatementSql(
          tenant.id,
          new Date(`${period.startDate}T00:00:00Z`),
          new Date(`${period.endDate}T00:00:00Z`),
          {
            ids: null,
            categoryIds: null,
            counterpartyIds: null,
          },
        ),
    },
    ...(["month", "week"] as const).map((granularity) => ({
      name: `cashflow-${granularity}`,
      raw: rawCashflow(granularity),
      ours: () => finance.reports.cashflow(ctx, { ...period, granularity }),
      oursSql: () =>
        cashflowSql({
          tenantId: tenant.id,
          start: period.startDate,
          end: period.endDate,
          granularity,
          periods: periodCount(
            new Date(`${period.startDate}T00:00:00Z`),
            new Date(`${period.endDate}T00:00:00Z`),
            granularity,
          ),
          ids: null,
        }),
    })),
  ].filter((each) => !ONLY || each.name === ONLY);

  const explain = async (text: string, params: unknown[]) => {
    const client = await admin.connect();
    try {
      // As the application runs it: the tenant role under row-level security.
      await client.query("BEGIN");
      await client.query(`SET LOCAL ROLE hisob_tenant`);
      await client.query("SELECT set_config('app.tenant_id', $1, true)", [tenant.id]);
      const { rows } = await client.query<{ "QUERY PLAN": string }>(
        `EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) ${text}`,
        params.map((value) => (value instanceof Date ? value.toISOString() : value)),
      );
      await client.query("ROLLBACK");
      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    } finally {
      client.release();
    }
  };

  for (const each of cases) {
    console.log(`\n=== ${each.name}`);
    for (let i = 0; i < 3; i++) {
      await admin.query(each.raw, values);
      await each.ours();
    }
    const ratios: number[] = [];
    for (let round = 0; round < RUNS; round++) {
      const time = async (fn: () => Promise<unknown>) => {
        const start = process.hrtime.bigint();
        await fn();
        return seconds(start) * 1000;
      };
      let base: number;
      let mine: number;
      if (round % 2 === 0) {
        base = await time(() => admin.query(each.raw, values));
        mine = await time(each.ours);
      } else {
        mine = await time(each.ours);
        base = await time(() => admin.query(each.raw, values));
      }
      ratios.push(mine / base);
      console.log(
        `round ${round + 1}: raw ${base.toFixed(1)} ms, ours ${mine.toFixed(1)} ms, × ${(mine / base).toFixed(2)}`,
      );
    }
    const sorted = [...ratios].sort((x, y) => x - y);
    console.log(
      `ratio median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(2)} (${sorted[0]?.toFixed(2)}–${sorted.at(-1)?.toFixed(2)})`,
    );
    const sql = each.oursSql();
    console.log(`--- raw plan\n${await explain(each.raw, values)}`);
    console.log(`--- ours plan\n${await explain(sql.text, sql.values)}`);
    const session = new Session();
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
    const start = process.hrtime.bigint();
    for (let i = 0; i < RUNS; i++) await each.ours();
    const wall = seconds(start) * 1000;
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    writeFileSync(path.join(tmpdir(), `profile-${each.name}.cpuprofile`), JSON.stringify(profile));
    const self = new Map<string, number>();
    const dt = profile.timeDeltas ?? [];
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    (profile.samples ?? []).forEach((id, index) => {
      const node = byId.get(id);
      if (!node) return;
      const { functionName, url, lineNumber } = node.callFrame;
      const key = `${functionName || "(anonymous)"} ${url.split("/").slice(-2).join("/")}:${lineNumber + 1}`;
      self.set(key, (self.get(key) ?? 0) + (dt[index] ?? 0) / 1000);
    });
    const total = [...self.values()].reduce((sum, ms) => sum + ms, 0);
    console.log(
      `--- CPU profile of ${RUNS} runs: ${wall.toFixed(0)} ms wall, ${total.toFixed(0)} ms sampled`,
    );
    for (const [key, ms] of [...self.entries()].sort((x, y) => y[1] - x[1]).slice(0, 25))
      console.log(`${ms.toFixed(1).padStart(8)} ms  ${key}`);
  }
  await admin.end();
  await db.close();
};

await main();
