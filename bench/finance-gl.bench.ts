import { tmpdir } from "node:os";
import { syncPermissions } from "@hisob/core";
import { createOutbox, type Db } from "@hisob/db";
import { createFinanceServices, type TTrialBalance } from "@hisob/finance";
import pg from "pg";
// Not "@hisob/db/testing": its index needs vitest's inject. These helpers do not.
import {
  createTestDbFromTemplate,
  dropTemplate,
  openKeptDatabase,
  prepareTemplate,
  type TestTemplate,
} from "../packages/db/src/testing/test-databases";
import { benchContext, provisionBenchTenant, seedLedger, timeAlternating } from "./finance-reports.bench";
import { median, seconds, withMemorySampling } from "./measure";
import type { Figure } from "./report";
import type { Bench, BenchResult } from "./run";

/**
 * The general ledger over existing books of 1,000,000 transactions (docs/decisions/0103-ledger-sql.md,
 * 0110-ledger-speed.md): the reports' year of cash books (finance-reports.bench.ts: incomes into a UZS
 * and a USD account, expenses, transfers, exchanges) seeded without journal lines, as books were before
 * the ledger; then `gl_backfill(tenant)` posts them — its wall time, the node process's peak RSS, the
 * backend's memory and temporary files —, a second run (must post nothing), the year's trial balance
 * through the service beside its bare SQL on plain `pg`, in alternating rounds, and the checks (trial
 * balance balanced, every money account's ledger balance equal to its cash balance). Needs
 * DATABASE_URL; skipped without. FINANCE_GL_DATABASE=<name> keeps the seeded books in that database
 * and reuses them on the next run (the seed and backfill are then not measured again).
 * `--iterations`: trial-balance rounds (default 5).
 */

const DEFAULT_RUNS = 5;
const MB = 1024 * 1024;
const BENCH_TENANT = "Bench GL";
const REPORT_TIMEOUT_MS = 600_000;

/** One gl_backfill as the migration runs it (the owner, one transaction), measured. */
const backfill = async (raw: pg.Pool, tenantId: string) => {
  const client = await raw.connect();
  try {
    const stat = async () =>
      (
        await client.query<{ temp_bytes: string; temp_files: string }>(
          "SELECT temp_bytes::text, temp_files::text FROM pg_stat_database WHERE datname = current_database()",
        )
      ).rows[0];
    const before = await stat();
    const run = await withMemorySampling(async () => {
      await client.query("BEGIN");
      const start = process.hrtime.bigint();
      const posted = await client.query<{ n: string }>("SELECT gl_backfill($1)::text AS n", [tenantId]);
      const statementSeconds = seconds(start);
      const memory = await client.query<{ bytes: string }>(
        "SELECT sum(total_bytes)::text AS bytes FROM pg_backend_memory_contexts",
      );
      const commitStart = process.hrtime.bigint();
      await client.query("COMMIT"); // the deferred balance check of every new entry runs here
      return {
        lines: Number(posted.rows[0]?.n),
        statementSeconds,
        commitSeconds: seconds(commitStart),
        backendBytes: Number(memory.rows[0]?.bytes),
      };
    });
    // pg_stat_database is updated when the backend reports; give it its moment.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const after = await stat();
    return {
      ...run.result,
      seconds: run.seconds,
      peakRss: run.peakRss,
      tempBytes: Number(after?.temp_bytes) - Number(before?.temp_bytes),
      tempFiles: Number(after?.temp_files) - Number(before?.temp_files),
    };
  } finally {
    client.release();
  }
};

type Backfill = Awaited<ReturnType<typeof backfill>>;

export const financeGlBench: Bench = {
  name: "finance-gl",
  run: async ({ iterations }): Promise<BenchResult> => {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) {
      const message = "finance-gl: skipped — set DATABASE_URL to a PostgreSQL admin URL.";
      console.log(message);
      return { name: message, rows: [] };
    }
    const runs = Math.max(5, iterations ?? DEFAULT_RUNS);
    let template: TestTemplate | undefined;
    let db: Db | undefined;
    let pool: pg.Pool | undefined;
    try {
      const kept = process.env.FINANCE_GL_DATABASE;
      // The year's trial balance took 32.8 s through the service at a load average of ~30, over
      // Prisma's default 15 s for a transaction: the run would stop there rather than measure it.
      if (kept)
        ({ db } = await openKeptDatabase({
          adminUrl,
          name: kept,
          poolSize: 4,
          transactionTimeoutMs: REPORT_TIMEOUT_MS,
        }));
      else {
        template = await prepareTemplate({ adminUrl, tmpDir: tmpdir() });
        db = await createTestDbFromTemplate(template, {
          poolSize: 4,
          transactionTimeoutMs: REPORT_TIMEOUT_MS,
        });
      }
      const appDb = db;
      const outbox = createOutbox(appDb, { unhandled: "settle" });
      await syncPermissions(appDb);
      const finance = createFinanceServices({ db: appDb, outbox });
      const [{ name }] = await appDb.withPlatform(
        (tx) => tx.$queryRaw<[{ name: string }]>`SELECT current_database() AS name`,
      );
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      pool = new pg.Pool({ connectionString: url.toString(), max: 2, options: "-c TimeZone=UTC -c jit=off" });
      const raw = pool;

      // A kept database's books from an earlier run, if it holds them.
      const previous = (
        await raw.query<{ tenant_id: string; user_id: string }>(
          `SELECT t.id::text AS tenant_id, u.id::text AS user_id FROM tenants t JOIN users u ON u.tenant_id = t.id
            WHERE t.name = $1 AND EXISTS (SELECT 1 FROM journal_lines l WHERE l.tenant_id = t.id)
            ORDER BY t.created_at DESC LIMIT 1`,
          [BENCH_TENANT],
        )
      ).rows[0];
      let seedSeconds: number | undefined;
      let first: Backfill | undefined;
      let second: Backfill | undefined;
      let tenantId: string;
      let ctx: ReturnType<typeof benchContext>;
      if (previous) {
        tenantId = previous.tenant_id;
        ctx = benchContext(tenantId, previous.user_id);
      } else {
        const provisioned = await provisionBenchTenant(appDb, outbox, BENCH_TENANT);
        tenantId = provisioned.tenant.id;
        ctx = provisioned.ctx;
        const { userId } = provisioned;
        const id = tenantId;
        await appDb.withTenant(id, (tx) =>
          tx.tenantSetting.create({ data: { tenantId: id, baseCurrencyCode: "UZS" } }),
        );
        const accounts = {
          a: (await finance.accounts.create(ctx, { name: "A", currency: "UZS", allowOverdraft: true })).id,
          b: (await finance.accounts.create(ctx, { name: "B", currency: "UZS", allowOverdraft: true })).id,
          usd: (await finance.accounts.create(ctx, { name: "USD", currency: "USD", allowOverdraft: true }))
            .id,
        };
        // The books as they were before the general ledger: no journal lines.
        const seedStart = process.hrtime.bigint();
        await raw.query("ALTER TABLE transactions DISABLE TRIGGER transactions_gl");
        await seedLedger(appDb, tenantId, accounts, userId);
        await raw.query("ALTER TABLE transactions ENABLE TRIGGER transactions_gl");
        seedSeconds = seconds(seedStart);
        await raw.query("VACUUM ANALYZE transactions, money_accounts, payments, expenses");
        first = await backfill(raw, tenantId);
        await raw.query("VACUUM ANALYZE journal_entries, journal_lines");
        second = await backfill(raw, tenantId);
      }
      await raw.query("VACUUM ANALYZE journal_entries, journal_lines");

      // The year's trial balance: the service beside the bare aggregate it is built on. Timed first
      // (after the warm-up): the first run's check, before any warm-up, met a cold cache.
      const period = { startDate: "2026-01-01", endDate: "2026-12-31" };
      const rawTrial = () =>
        raw.query(
          `SELECT l.gl_account_id,
                  sum(l.base_amount) FILTER (WHERE l.date < $2::date),
                  sum(l.base_amount) FILTER (WHERE l.date >= $2::date AND l.base_amount > 0),
                  -sum(l.base_amount) FILTER (WHERE l.date >= $2::date AND l.base_amount < 0)
             FROM journal_lines l WHERE l.tenant_id = $1 AND l.date <= $3::date
            GROUP BY l.gl_account_id`,
          [tenantId, period.startDate, period.endDate],
        );
      let trial: TTrialBalance | undefined;
      const { base, mine, ratios } = await timeAlternating(runs, rawTrial, async () => {
        trial = await finance.generalLedger.trialBalance(ctx, period);
      });

      // Checks: the trial balance balances; each money account's ledger balance in its own currency is
      // its cash balance.
      const differences = await raw.query<{ id: string }>(
        `SELECT a.id FROM money_accounts a
          WHERE a.tenant_id = $1
            AND a.balance <> COALESCE((SELECT sum(l.amount) FROM journal_lines l
                                        WHERE l.tenant_id = a.tenant_id AND l.money_account_id = a.id), 0)`,
        [tenantId],
      );
      const [lineCount] = (
        await raw.query<{ n: string }>("SELECT count(*)::text AS n FROM journal_lines WHERE tenant_id = $1", [
          tenantId,
        ])
      ).rows;
      const low = Math.min(...ratios);
      const high = Math.max(...ratios);
      const figures: Figure[] = [
        {
          case: `trial balance, 1 year, ${lineCount?.n} lines: service vs its bare SQL, ${runs} alternating rounds (target ≤ 1.3)`,
          ours: `${(mine * 1000).toFixed(1)} ms`,
          baseline: `${(base * 1000).toFixed(1)} ms`,
          ratio: median(ratios),
          spread: [low, high],
          better: "lower",
        },
      ];
      const backfillRow = (label: string, run: Backfill) => ({
        run: label,
        "lines posted": run.lines,
        "wall s": run.seconds.toFixed(1),
        "statement s": run.statementSeconds.toFixed(1),
        "commit s (deferred balance checks)": run.commitSeconds.toFixed(1),
        "node peak RSS MB": (run.peakRss / MB).toFixed(1),
        "backend memory before commit MB": (run.backendBytes / MB).toFixed(1),
        "temp files MB (count)": `${(run.tempBytes / MB).toFixed(1)} (${run.tempFiles})`,
      });
      return {
        name: "finance-gl (PostgreSQL, 1,000,000 transactions without lines, then gl_backfill)",
        rows: [],
        figures,
        tables: [
          ...(first && second
            ? [
                {
                  title: "gl_backfill(tenant)",
                  rows: [backfillRow("first", first), backfillRow("second (idempotent)", second)],
                },
              ]
            : []),
          {
            title: "Trial balance, 1 year",
            rows: [
              {
                "raw SQL ms": (base * 1000).toFixed(1),
                "service ms": (mine * 1000).toFixed(1),
                "× raw SQL (median of rounds)": median(ratios).toFixed(2),
                "spread (rounds)": `${low.toFixed(2)}–${high.toFixed(2)}`,
                "per round": ratios.map((ratio) => ratio.toFixed(2)).join(", "),
              },
            ],
          },
          {
            title: "Setup and checks",
            rows: [
              {
                item: "seed 1,000,000 transactions without lines (s)",
                value: seedSeconds === undefined ? "kept from an earlier run" : seedSeconds.toFixed(1),
              },
              { item: "journal lines", value: lineCount?.n ?? "?" },
              { item: "trial balance balanced", value: String(trial?.balanced) },
              {
                item: "trial balance debit = credit",
                value: `${trial?.totals.debit} = ${trial?.totals.credit}`,
              },
              {
                item: "money accounts whose ledger balance differs from cash",
                value: differences.rowCount ?? 0,
              },
              ...(second ? [{ item: "second run posted nothing", value: String(second.lines === 0) }] : []),
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
