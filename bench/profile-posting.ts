import { tmpdir } from "node:os";
import { syncPermissions } from "@hisob/core";
import { createDb, createOutbox } from "@hisob/db";
import { createFinanceServices } from "@hisob/finance";
import pg from "pg";
import {
  createTestDbFromTemplate,
  dropTemplate,
  prepareTemplate,
  TEST_OWNER_ROLE,
} from "../packages/db/src/testing/test-databases";
import { provisionBenchTenant } from "./finance-reports.bench";
import { median, percentile, seconds } from "./measure";

/*
 * Where a payment's posting spends its time in the database (docs/decisions/0110-ledger-speed.md):
 * `payments.create` run N times on a fresh database with `track_functions = all`, then the calls,
 * total and self time per call of every PL/pgSQL function the posting ran (the ledger's trigger and
 * what it calls), beside the posting's own latency. Not a benchmark (`npm run bench -- --only
 * finance-ledger` is the record): it says where to look.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres [N=500] npx tsx bench/profile-posting.ts
 */

const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) throw new Error("Set DATABASE_URL to a PostgreSQL admin URL");
const N = Number(process.env.N ?? 500);
const DATE = "2026-11-22";

const template = await prepareTemplate({ adminUrl, tmpDir: tmpdir() });
try {
  const db = await createTestDbFromTemplate(template, { poolSize: 4 });
  const outbox = createOutbox(db, { unhandled: "settle" });
  await syncPermissions(db);
  const finance = createFinanceServices({ db, outbox });
  const { ctx } = await provisionBenchTenant(db, outbox);
  const account = await finance.accounts.create(ctx, { name: "Till", currency: "UZS" });
  const [{ name }] = await db.withPlatform(
    (tx) => tx.$queryRaw<[{ name: string }]>`SELECT current_database() AS name`,
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const admin = new pg.Pool({ connectionString: url.toString(), max: 1 });
  // The app's sessions read it at their start: open new ones.
  await admin.query(`ALTER DATABASE ${name} SET track_functions = 'all'`);
  await db.close();
  const owner = new URL(url);
  owner.username = TEST_OWNER_ROLE;
  owner.password = TEST_OWNER_ROLE; // the test owner's password is its name (test-databases.ts)
  const profiled = await createDb({ databaseUrl: owner.toString(), dataDir: "", poolSize: 1 });
  const services = createFinanceServices({
    db: profiled,
    outbox: createOutbox(profiled, { unhandled: "settle" }),
  });
  const pay = () =>
    services.payments.create(ctx, { accountId: account.id, amount: "1250", date: DATE, comment: "" });
  for (let i = 0; i < 200; i++) await pay();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await admin.query("SELECT pg_stat_reset()");
  const latencies: number[] = [];
  for (let i = 0; i < N; i++) {
    const start = process.hrtime.bigint();
    await pay();
    latencies.push(seconds(start) * 1000);
  }
  // The statistics collector hears a backend at its transaction ends, at most every 500 ms.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const functions = await admin.query<{ funcname: string; calls: string; total: string; self: string }>(
    `SELECT funcname, calls::text, round((total_time / calls * 1000)::numeric, 1)::text AS total,
            round((self_time / calls * 1000)::numeric, 1)::text AS self
       FROM pg_stat_user_functions WHERE calls > 0 ORDER BY total_time DESC`,
  );
  console.log(
    `payments.create ×${N}: p50 ${median(latencies).toFixed(2)} ms, p90 ${percentile(latencies, 90).toFixed(2)} ms`,
  );
  console.log("function | calls | total µs/call | self µs/call");
  for (const row of functions.rows)
    console.log(`${row.funcname} | ${row.calls} | ${row.total} | ${row.self}`);
  await admin.end();
  await profiled.close();
} finally {
  await dropTemplate(template);
}
