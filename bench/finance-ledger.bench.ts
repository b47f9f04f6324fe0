import { tmpdir } from "node:os";
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
import { median, percentile, seconds } from "./measure";
import type { Bench, BenchResult } from "./run";

/**
 * Payment creation (`finance.payments.create`: validation, balance UPDATE, ledger entry, payment row,
 * outbox event, one transaction) serially and from 8 concurrent callers, on an account with no
 * history and on one with 1,000,000 prior transactions — the two must be about equal, since a
 * posting is O(1) in the account's history. Baseline, same process, same database: plain `pg`
 * doing the same writes, journal lines included (balance UPDATE, INSERT transaction, INSERT payment,
 * INSERT journal entry, INSERT its two lines) in BEGIN … COMMIT, as the database owner (no RLS role
 * switch, no outbox, no audit entry), with the ledger's row trigger on `transactions` disabled during
 * its rounds (it writes the lines itself; docs/decisions/0103-ledger-sql.md), the two taking turns in
 * rounds of 100. Transfers likewise (`finance.transfers.transfer` against plain `pg`'s two balance
 * UPDATEs in id order, the entry's INSERT and its journal entry and lines), both ways between two
 * accounts. Needs DATABASE_URL (a PostgreSQL admin URL); skipped without. `--iterations`: payments
 * per case (default 2,000).
 */

const WORKERS = 8;
const DEFAULT_ITERATIONS = 2_000;
const HISTORY = 1_000_000;
const HISTORY_BATCH = 20_000;
const DATE = "2026-11-22";

/** Operations per round: baseline and ours take turns. */
const ROUND = 100;

type Round = { ops: number; seconds: number; latencies: number[] };
type Run = Round & { readonly opsPerSecond: number; readonly p50: number; readonly p99: number };

/** Rounds added up: throughput over the time spent in them, percentiles over all their latencies. */
const emptyRun = (): Run => ({
  ops: 0,
  seconds: 0,
  latencies: [],
  get opsPerSecond() {
    return this.ops / this.seconds;
  },
  get p50() {
    return percentile(this.latencies, 50);
  },
  get p99() {
    return percentile(this.latencies, 99);
  },
});
const addRun = (run: Run, round: Round) => {
  run.ops += round.ops;
  run.seconds += round.seconds;
  run.latencies.push(...round.latencies);
};

/** `workers` loops sharing `total` operations; wall-clock time and every latency. */
const runWorkers = async (
  workers: number,
  total: number,
  op: (i: number) => Promise<void>,
): Promise<Round> => {
  const latencies: number[] = [];
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        await op(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { ops: total, seconds: seconds(start), latencies };
};

/**
 * Prior history for `accountId`: income entries spread over ten years, inserted in set-based batches,
 * each in a driver transaction in the tenant (`db.rawTx`, the tenancy wall of `withTenant`): Prisma's
 * interactive transactions end after 15 s, which one batch outlasted at a load average of ~29.
 */
const seedHistory = async (db: Db, tenantId: string, accountId: string, userId: string) => {
  for (let done = 0; done < HISTORY; done += HISTORY_BATCH) {
    await db.rawTx.withTenant(tenantId, (tx) =>
      tx.query(
        `INSERT INTO transactions (id, tenant_id, type, amount, date, destination_account_id, comment, created_by)
         SELECT gen_random_uuid(), $1::uuid, 'income', 100, DATE '2016-01-01' + (g % 3650), $2::uuid, '', $3::uuid
           FROM generate_series($4::int, $5::int) AS g`,
        [tenantId, accountId, userId, done + 1, done + HISTORY_BATCH],
      ),
    );
  }
  await db.rawTx.withTenant(tenantId, (tx) =>
    tx.query("UPDATE money_accounts SET balance = balance + $1::bigint WHERE id = $2::uuid", [
      (BigInt(HISTORY) * 100n).toString(),
      accountId,
    ]),
  );
};

export const financeLedgerBench: Bench = {
  name: "finance-ledger",
  run: async ({ iterations }): Promise<BenchResult> => {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) {
      const message =
        "finance-ledger: skipped — set DATABASE_URL to a PostgreSQL admin URL " +
        "(e.g. postgres://postgres@127.0.0.1:5432/postgres); concurrency needs PostgreSQL.";
      console.log(message);
      return { name: message, rows: [] };
    }
    const total = iterations ?? DEFAULT_ITERATIONS;
    let template: TestTemplate | undefined;
    let db: Db | undefined;
    let pool: pg.Pool | undefined;
    try {
      template = await prepareTemplate({ adminUrl, tmpDir: tmpdir() });
      db = await createTestDbFromTemplate(template, { poolSize: WORKERS + 2 });
      const appDb = db;
      const outbox = createOutbox(appDb, { unhandled: "settle" }); // as the server's
      await syncPermissions(appDb);
      const finance = createFinanceServices({ db: appDb, outbox });
      const tenant = await provisionTenant({ db: appDb, outbox }, { name: "Bench", isPlatform: false });
      const userId = newId();
      // The actor must be a user of the tenant: audit entries cannot name a made-up author
      // (migration audit_actor_guard).
      await appDb.withTenant(tenant.id, (tx) =>
        tx.user.create({
          data: {
            id: userId,
            tenantId: tenant.id,
            email: "bench@ledger.test",
            firstName: "Bench",
            lastName: "Ledger",
          },
        }),
      );
      const ctx: TenantContext = {
        tenantId: tenant.id,
        actor: { userId, permissions: new Set(listPermissions().map((p) => p.name)) },
        locale: "en",
        requestId: "bench",
      };
      const fresh = await finance.accounts.create(ctx, { name: "Fresh", currency: "UZS" });
      const busy = await finance.accounts.create(ctx, { name: "Busy", currency: "UZS" });
      // The baseline connects as the admin to the same database: RLS does not apply to it.
      const [{ name }] = await appDb.withTenant(
        tenant.id,
        (tx) => tx.$queryRaw<[{ name: string }]>`SELECT current_database() AS name`,
      );
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      pool = new pg.Pool({ connectionString: url.toString(), max: WORKERS + 2 });

      // The history is the cash books of before the general ledger (docs/decisions/0093-general-ledger.md):
      // inserted without its journal lines (the ledger's row trigger off while it is seeded), since
      // a posting reads none of another document's lines. The postings measured below write theirs.
      const seedStart = process.hrtime.bigint();
      await pool.query("ALTER TABLE transactions DISABLE TRIGGER transactions_gl");
      await seedHistory(appDb, tenant.id, busy.id, userId);
      await pool.query("ALTER TABLE transactions ENABLE TRIGGER transactions_gl");
      const seedSeconds = seconds(seedStart);
      const baselinePool = pool;
      // Statistics as autovacuum would leave them, gathered as the owner (the application's role may
      // not ANALYZE: PostgreSQL skips it with a warning).
      await baselinePool.query("ANALYZE transactions, money_accounts, payments, account_day_totals");
      /** One baseline transaction: `work`'s statements between BEGIN and COMMIT on one connection. */
      const baselineTx = async (work: (client: pg.PoolClient) => Promise<void>) => {
        const client = await baselinePool.connect();
        try {
          await client.query("BEGIN");
          await work(client);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw error;
        } finally {
          client.release();
        }
      };
      // The leaves a payment posts to (the chart's defaults: no account or category mapped).
      const [roles] = (
        await baselinePool.query<{ money: string; revenue: string }>(
          "SELECT gl_role_account($1, 'money')::text AS money, gl_role_account($1, 'revenue')::text AS revenue",
          [tenant.id],
        )
      ).rows;
      if (!roles) throw new Error("no chart");
      /** The journal entry of transaction `id` and its lines: [money account, GL account, signed amount]. */
      const rawLines = async (
        client: pg.PoolClient,
        id: string,
        lines: Array<[string | null, string, number]>,
      ) => {
        const entryId = newId();
        await client.query(
          "INSERT INTO journal_entries (id, tenant_id, date, source_kind, source_id) VALUES ($1, $2, $3, 'transaction', $4)",
          [entryId, tenant.id, DATE, id],
        );
        await client.query(
          `INSERT INTO journal_lines (tenant_id, entry_id, gl_account_id, date, money_account_id, currency_code, amount, base_amount, rate)
           SELECT $1, $2, l.gl, $3, l.money, 'UZS', l.amount, l.amount, 1
             FROM unnest($4::uuid[], $5::uuid[], $6::bigint[]) AS l(money, gl, amount)`,
          [tenant.id, entryId, DATE, lines.map((l) => l[0]), lines.map((l) => l[1]), lines.map((l) => l[2])],
        );
      };
      /** The baseline writes its lines itself: the ledger's trigger is off during its rounds. */
      const withoutLedgerTrigger = async <T>(work: () => Promise<T>): Promise<T> => {
        await baselinePool.query("ALTER TABLE transactions DISABLE TRIGGER transactions_gl");
        try {
          return await work();
        } finally {
          await baselinePool.query("ALTER TABLE transactions ENABLE TRIGGER transactions_gl");
        }
      };
      const MOVE =
        "UPDATE money_accounts SET balance = balance + $1, updated_at = now() WHERE tenant_id = $2 AND id = $3 AND (allow_overdraft OR balance + $1 >= 0) RETURNING currency_code, balance";
      const rawPayment = (accountId: string) =>
        baselineTx(async (client) => {
          await client.query(MOVE, ["1250", tenant.id, accountId]);
          const transactionId = newId();
          await client.query(
            "INSERT INTO transactions (id, tenant_id, type, amount, date, destination_account_id, comment, created_by) VALUES ($1, $2, 'income', $3, $4, $5, '', $6)",
            [transactionId, tenant.id, "1250", DATE, accountId, userId],
          );
          await client.query(
            "INSERT INTO payments (id, tenant_id, account_id, amount, date, comment, transaction_id, created_by, updated_at) VALUES ($1, $2, $3, $4, $5, '', $6, $7, now())",
            [newId(), tenant.id, accountId, "1250", DATE, transactionId, userId],
          );
          await rawLines(client, transactionId, [
            [accountId, roles.money, 1250],
            [null, roles.revenue, -1250],
          ]);
        });
      const ourPayment = async (accountId: string) => {
        await finance.payments.create(ctx, { accountId, amount: "1250", date: DATE, comment: "" });
      };
      // Transfers go both ways between two accounts (so concurrent ones cross): the baseline locks the
      // pair in id order as ours does, moves both balances and inserts the entry.
      const till = await finance.accounts.create(ctx, {
        name: "Till",
        currency: "UZS",
        allowOverdraft: true,
      });
      const bank = await finance.accounts.create(ctx, {
        name: "Bank",
        currency: "UZS",
        allowOverdraft: true,
      });
      const pair = (i: number) => (i % 2 === 0 ? [till.id, bank.id] : [bank.id, till.id]) as [string, string];
      const rawTransfer = (i: number) =>
        baselineTx(async (client) => {
          const [from, to] = pair(i);
          for (const id of [from, to].sort()) {
            await client.query(MOVE, [id === from ? "-700" : "700", tenant.id, id]);
          }
          const transactionId = newId();
          await client.query(
            "INSERT INTO transactions (id, tenant_id, type, amount, date, origin_account_id, destination_account_id, comment, created_by) VALUES ($1, $2, 'transfer', $3, $4, $5, $6, '', $7)",
            [transactionId, tenant.id, "700", DATE, from, to, userId],
          );
          await rawLines(client, transactionId, [
            [to, roles.money, 700],
            [from, roles.money, -700],
          ]);
        });
      const ourTransfer = async (i: number) => {
        const [fromAccountId, toAccountId] = pair(i);
        await finance.transfers.transfer(ctx, { fromAccountId, toAccountId, amount: "700", date: DATE });
      };

      // Warm both paths (JIT, connection pools, plan caches).
      for (let i = 0; i < 100; i++) {
        await withoutLedgerTrigger(async () => {
          await rawPayment(fresh.id);
          await rawTransfer(i);
        });
        await ourPayment(fresh.id);
        await ourTransfer(i);
      }

      const rows: BenchResult["rows"] = [];
      const latencyRows: Array<Record<string, string | number>> = [];
      /**
       * The baseline and ours in alternating rounds: on a shared machine the load moves within
       * seconds, and both sides must see the same load for their ratio to mean anything.
       */
      const compare = async (
        workers: number,
        names: { baseline: string; ours: string; latency: string },
        baseline: (i: number) => Promise<void>,
        ours: (i: number) => Promise<void>,
      ) => {
        const rawRun = emptyRun();
        const ourRun = emptyRun();
        /** Each round's ours ÷ baseline throughput: the spread a loaded machine leaves. */
        const roundRatios: number[] = [];
        for (let done = 0; done < total; done += ROUND) {
          const size = Math.min(ROUND, total - done);
          const raw = await withoutLedgerTrigger(() => runWorkers(workers, size, baseline));
          const mine = await runWorkers(workers, size, ours);
          addRun(rawRun, raw);
          addRun(ourRun, mine);
          roundRatios.push(raw.seconds / mine.seconds);
        }
        rows.push({ label: names.baseline, opsPerSecond: rawRun.opsPerSecond, ratio: 1 });
        rows.push({
          label: names.ours,
          opsPerSecond: ourRun.opsPerSecond,
          ratio: rawRun.opsPerSecond / ourRun.opsPerSecond,
        });
        latencyRows.push({
          case: names.latency,
          "baseline p50 ms": rawRun.p50.toFixed(2),
          "ours p50 ms": ourRun.p50.toFixed(2),
          "ours p99 ms": ourRun.p99.toFixed(2),
          "ours ÷ baseline ops/s, rounds: median (min–max)": `${median(roundRatios).toFixed(2)} (${Math.min(...roundRatios).toFixed(2)}–${Math.max(...roundRatios).toFixed(2)})`,
        });
      };
      const modeOf = (workers: number) => (workers === 1 ? "serial" : `${workers} concurrent`);
      for (const [label, account] of [
        ["no history", fresh],
        [`${HISTORY.toLocaleString("en")} prior transactions`, busy],
      ] as const) {
        for (const workers of [1, WORKERS]) {
          const mode = modeOf(workers);
          await compare(
            workers,
            {
              baseline: `pg baseline, ${mode}, ${label}`,
              ours: `payments.create, ${mode}, ${label}`,
              latency: `${mode}, ${label}`,
            },
            () => rawPayment(account.id),
            () => ourPayment(account.id),
          );
        }
      }
      for (const workers of [1, WORKERS]) {
        const mode = modeOf(workers);
        await compare(
          workers,
          {
            baseline: `pg baseline transfer, ${mode}`,
            ours: `transfers.transfer, ${mode}, both ways between two accounts`,
            latency: `transfer, ${mode}`,
          },
          rawTransfer,
          ourTransfer,
        );
      }
      const report = await finance.reconcile.reconcile(ctx);
      const drift = await appDb.withTenant(
        tenant.id,
        (tx) =>
          tx.$queryRaw<[{ balance: string; computed: string }]>`
          SELECT a.balance::text,
                 ((SELECT COALESCE(sum(amount), 0) FROM transactions t WHERE t.destination_account_id = a.id)
                  - (SELECT COALESCE(sum(amount), 0) FROM transactions t WHERE t.origin_account_id = a.id))::text AS computed
            FROM money_accounts a WHERE a.id = ${busy.id}::uuid`,
      );
      return {
        name: `finance-ledger (PostgreSQL, ${total} payments per case, pool ${WORKERS + 2})`,
        rows,
        tables: [
          { title: "Latency per payment", rows: latencyRows },
          {
            title: "Setup and checks",
            rows: [
              {
                item: `seed ${HISTORY.toLocaleString("en")} transactions (s)`,
                value: seedSeconds.toFixed(1),
              },
              { item: "reconcile after the run: drift", value: report.drift.length },
              {
                item: "busy account: stored = recomputed",
                value: String(drift[0].balance === drift[0].computed),
              },
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
