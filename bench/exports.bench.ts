import { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { t } from "@hisob/i18n";
import ExcelJS from "exceljs";
import pg from "pg";
import { median, withMemorySampling } from "./measure";
import type { Figure } from "./report";
import type { Bench, BenchResult, BenchTable } from "./run";
import { seedUsers, withBenchServer } from "./users.bench";

/**
 * Spreadsheet downloads of 100,000 rows through the real HTTP stack (`app.inject`, a bearer session,
 * the response read as a stream), each beside the plainest way to make the same file: one raw SQL
 * query read through a `pg` cursor (`DECLARE … CURSOR`, `FETCH 1000` at a time) and written with
 * exceljs's streaming WorkbookWriter — the same rows, the same columns and cell kinds — into the same
 * byte-counting sink, in the same process:
 *  - an account's transactions (`GET /finance/accounts/:id/transactions/export?limit=100000`);
 *  - the users list (`GET /users/export`).
 * Rounds alternate which side goes first; per round: ours ÷ baseline wall time, and ours − baseline
 * peak RSS (rss sampled every 20 ms from a worker thread, minus rss before, after a forced GC). Each
 * figure is the median of the rounds with the lowest and highest. RSS is the process's: one that grew
 * for an earlier run is not given back at once, so a later run's Δ can read low — alternating shares
 * that out. Needs DATABASE_URL (a PostgreSQL admin URL). `--iterations`: rounds (default 5).
 */

const ROWS = 100_000;
const DEFAULT_ROUNDS = 5;
const FETCH = 1_000;
const MB = 1024 * 1024;

/** A Writable that only counts bytes, sampling memory per chunk. */
const countingSink = (onChunk: () => void) => {
  let bytes = 0;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      onChunk();
      callback();
    },
  });
  return { stream, bytes: () => bytes };
};

/** Rows of `sql` through a server-side cursor, FETCH rows at a time, in one read-only transaction. */
async function* cursorRows<Row>(
  client: pg.PoolClient,
  sql: string,
  values: unknown[],
): AsyncGenerator<Row[]> {
  await client.query("BEGIN READ ONLY");
  try {
    await client.query(`DECLARE export_rows NO SCROLL CURSOR FOR ${sql}`, values);
    for (;;) {
      const { rows } = await client.query<Row & pg.QueryResultRow>(`FETCH ${FETCH} FROM export_rows`);
      if (rows.length === 0) break;
      yield rows;
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

type Column = { header: string; width: number; numFmt?: string };

/** The baseline writer: exceljs streaming, styles, no shared strings, frozen header with a filter. */
const writeBaseline = async <Row>(
  output: Writable,
  sheetName: string,
  columns: Column[],
  batches: AsyncIterable<Row[]>,
  values: (row: Row) => unknown[],
) => {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = columns.map((column, index) => ({
    header: column.header,
    key: String(index),
    width: column.width,
    ...(column.numFmt ? { style: { numFmt: column.numFmt } } : {}),
  }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.commit();
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
  let count = 0;
  for await (const batch of batches) {
    for (const row of batch) {
      sheet.addRow(values(row)).commit();
      count++;
    }
  }
  sheet.commit();
  await workbook.commit();
  return count;
};

const DATE = "mmm d, yyyy";
const DATETIME = "mmm d, yyyy hh:mm";
const UZS = '#,##0.00 "UZS";-#,##0.00 "UZS"';

type TransactionRow = {
  date: Date;
  type: string;
  change: string;
  counter_account_name: string | null;
  exchange_rate: string | null;
  comment: string;
  created_at: Date;
};
const TRANSACTIONS_SQL = `
  SELECT t.date, t.type::text AS type,
         (CASE WHEN t.origin_account_id = $2::uuid THEN -t.amount
               ELSE COALESCE(t.destination_amount, t.amount) END)::text AS change,
         a.name AS counter_account_name, t.exchange_rate::text AS exchange_rate, t.comment, t.created_at
    FROM transactions t
    LEFT JOIN money_accounts a ON a.tenant_id = t.tenant_id
     AND a.id = CASE WHEN t.origin_account_id = $2::uuid THEN t.destination_account_id ELSE t.origin_account_id END
   WHERE t.tenant_id = $1::uuid AND (t.origin_account_id = $2::uuid OR t.destination_account_id = $2::uuid)
   ORDER BY t.date, t.id
   LIMIT $3`;

type UserRow = {
  email: string;
  first_name: string;
  last_name: string;
  ui_language: string;
  is_active: boolean;
  roles: string;
  groups: string;
  created_at: Date;
  updated_at: Date;
};
const USERS_SQL = `
  SELECT u.email, u.first_name, u.last_name, u.ui_language, u.is_active,
         coalesce((SELECT string_agg(r.name, ', ' ORDER BY r.name) FROM user_roles ur
                     JOIN roles r ON r.tenant_id = ur.tenant_id AND r.id = ur.role_id
                    WHERE ur.tenant_id = u.tenant_id AND ur.user_id = u.id), '') AS roles,
         coalesce((SELECT string_agg(g.name, ', ' ORDER BY g.name) FROM group_users gu
                     JOIN groups g ON g.tenant_id = gu.tenant_id AND g.id = gu.group_id
                    WHERE gu.tenant_id = u.tenant_id AND gu.user_id = u.id), '') AS groups,
         u.created_at, u.updated_at
    FROM users u WHERE u.tenant_id = $1::uuid
   ORDER BY u.created_at DESC, u.id DESC
   LIMIT $2`;

type Side = { seconds: number; peakRss: number; bytes: number; rows: number };

export const exportsBench: Bench = {
  name: "exports",
  run: async ({ iterations }): Promise<BenchResult> => {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) {
      const message =
        "exports: skipped — set DATABASE_URL to a PostgreSQL admin URL " +
        "(e.g. postgres://postgres@127.0.0.1:5432/postgres).";
      console.log(message);
      return { name: message, rows: [] };
    }
    const rounds = iterations ?? DEFAULT_ROUNDS;
    return withBenchServer(async ({ database, app, tenant, headers }) => {
      const { db, sql } = database;
      const [{ name } = { name: "" }] = await sql.query<{ name: string }>(
        "SELECT current_database() AS name",
      );
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
      try {
        // Two accounts; ROWS entries on A: incomes into it, expenses and transfers out of it to B.
        const [{ id: userId } = { id: "" }] = await sql.query<{ id: string }>(
          "SELECT id FROM users WHERE tenant_id = $1::uuid LIMIT 1",
          [tenant.id],
        );
        const accounts = await sql.query<{ id: string; name: string }>(
          `INSERT INTO money_accounts (id, tenant_id, name, number, currency_code, allow_overdraft, updated_at)
           SELECT gen_random_uuid(), $1::uuid, n, '', 'UZS', true, now() FROM unnest(ARRAY['A','B']) AS n
           RETURNING id, name`,
          [tenant.id],
        );
        const a = accounts.find((account) => account.name === "A")?.id as string;
        const b = accounts.find((account) => account.name === "B")?.id as string;
        for (let done = 0; done < ROWS; done += 20_000) {
          await db.withTenant(
            tenant.id,
            (tx) => tx.$executeRaw`
              INSERT INTO transactions (id, tenant_id, type, amount, date, origin_account_id,
                                        destination_account_id, comment, created_by)
              SELECT gen_random_uuid(), ${tenant.id}::uuid, kind::transaction_type, 1000 + g % 5000,
                     DATE '2026-01-01' + (g % 365),
                     CASE kind WHEN 'income' THEN NULL ELSE ${a}::uuid END,
                     CASE kind WHEN 'income' THEN ${a}::uuid WHEN 'expense' THEN NULL ELSE ${b}::uuid END,
                     'entry ' || g, ${userId}::uuid
                FROM generate_series(${done + 1}::int, ${done + 20_000}::int) AS g,
                     LATERAL (SELECT (ARRAY['income','income','expense','transfer'])[1 + g % 4] AS kind) k`,
          );
        }
        await seedUsers(db, tenant.id, ROWS - 1);
        await pool.query(
          "VACUUM ANALYZE transactions, money_accounts, account_day_totals, users, user_roles, roles, groups, group_users",
        );

        const typeLabels = new Map(
          (["income", "expense", "transfer", "exchange", "opening_balance"] as const).map((type) => [
            type,
            t("en", `export.finance.types.${type}`),
          ]),
        );
        const ours = async (path: string, onChunk: () => void) => {
          const sink = countingSink(onChunk);
          const response = await app.inject({ method: "GET", url: path, headers, payloadAsStream: true });
          if (response.statusCode !== 200) throw new Error(`GET ${path}: ${response.statusCode}`);
          response.stream().pipe(sink.stream);
          await finished(sink.stream);
          return { bytes: sink.bytes(), rows: Number.NaN };
        };
        const baselineOf =
          <Row>(
            query: string,
            values: unknown[],
            sheet: string,
            columns: Column[],
            cells: (row: Row) => unknown[],
          ) =>
          async (onChunk: () => void) => {
            const sink = countingSink(onChunk);
            const client = await pool.connect();
            try {
              const rows = await writeBaseline(
                sink.stream,
                sheet,
                columns,
                cursorRows<Row>(client, query, values),
                cells,
              );
              await finished(sink.stream);
              return { bytes: sink.bytes(), rows };
            } finally {
              client.release();
            }
          };

        const cases = [
          {
            label: `account transactions .xlsx, ${ROWS.toLocaleString("en")} rows`,
            ours: (onChunk: () => void) =>
              ours(`/finance/accounts/${a}/transactions/export?limit=${ROWS}&order=asc`, onChunk),
            baseline: baselineOf<TransactionRow>(
              TRANSACTIONS_SQL,
              [tenant.id, a, ROWS],
              "Transactions",
              [
                { header: "Date", width: 12, numFmt: DATE },
                { header: "Type", width: 14 },
                { header: "Change", width: 18, numFmt: UZS },
                { header: "Counter account", width: 24 },
                { header: "Exchange rate", width: 14 },
                { header: "Comment", width: 40 },
                { header: "Created", width: 18, numFmt: DATETIME },
              ],
              (row) => [
                row.date,
                typeLabels.get(row.type as "income") ?? row.type,
                Number(row.change) / 100,
                row.counter_account_name,
                row.exchange_rate?.replace(/\.?0+$/, "") ?? null,
                row.comment,
                row.created_at,
              ],
            ),
          },
          {
            label: `users .xlsx, ${ROWS.toLocaleString("en")} rows`,
            ours: (onChunk: () => void) => ours("/users/export", onChunk),
            baseline: baselineOf<UserRow>(
              USERS_SQL,
              [tenant.id, ROWS],
              "Users",
              [
                { header: "Email", width: 32 },
                { header: "First name", width: 24 },
                { header: "Last name", width: 24 },
                { header: "Language", width: 10 },
                { header: "Active", width: 10 },
                { header: "Roles", width: 30 },
                { header: "Groups", width: 30 },
                { header: "Created", width: 18, numFmt: DATETIME },
                { header: "Updated", width: 18, numFmt: DATETIME },
              ],
              (row) => [
                row.email,
                row.first_name,
                row.last_name,
                row.ui_language,
                row.is_active,
                row.roles,
                row.groups,
                row.created_at,
                row.updated_at,
              ],
            ),
          },
        ];

        const measure = async (fn: (onChunk: () => void) => Promise<{ bytes: number; rows: number }>) => {
          const run = await withMemorySampling((sample) => fn(sample));
          return { seconds: run.seconds, peakRss: run.peakRss, ...run.result } satisfies Side;
        };
        const figures: Figure[] = [];
        const tables: BenchTable[] = [];
        for (const each of cases) {
          // Warm-up: the JIT, exceljs loaded, PostgreSQL's caches; same size, so the process's heap
          // and RSS have grown to what such a file needs before anything is measured.
          await each.baseline(() => {});
          await each.ours(() => {});
          const base: Side[] = [];
          const mine: Side[] = [];
          for (let round = 0; round < rounds; round++) {
            if (round % 2 === 0) {
              base.push(await measure(each.baseline));
              mine.push(await measure(each.ours));
            } else {
              mine.push(await measure(each.ours));
              base.push(await measure(each.baseline));
            }
          }
          const times = mine.map((run, index) => run.seconds / (base[index]?.seconds ?? Number.NaN));
          const rss = mine.map((run, index) => (run.peakRss - (base[index]?.peakRss ?? Number.NaN)) / MB);
          const secondsOf = (runs: Side[]) => median(runs.map((run) => run.seconds));
          const rssOf = (runs: Side[]) => median(runs.map((run) => run.peakRss)) / MB;
          figures.push(
            {
              case: `${each.label}: wall time vs raw SQL cursor + exceljs stream (target ≤ 1.5)`,
              ours: `${secondsOf(mine).toFixed(2)} s`,
              baseline: `${secondsOf(base).toFixed(2)} s`,
              ratio: median(times),
              spread: [Math.min(...times), Math.max(...times)],
              better: "lower",
            },
            {
              case: `${each.label}: peak Δ RSS, ours − baseline in MB (target ≤ 50; the ratio column is the difference)`,
              ours: `${rssOf(mine).toFixed(1)} MB`,
              baseline: `${rssOf(base).toFixed(1)} MB`,
              ratio: median(rss),
              spread: [Math.min(...rss), Math.max(...rss)],
              better: "lower",
            },
          );
          tables.push({
            title: `${each.label}: per round (rounds alternate which side goes first)`,
            rows: base.flatMap((run, index) => {
              const other = mine[index] as Side;
              return [
                ["raw SQL cursor + exceljs (baseline)", run],
                ["ours over HTTP", other],
              ].map(([side, value]) => {
                const v = value as Side;
                return {
                  round: index + 1,
                  side: side as string,
                  "wall s": v.seconds.toFixed(2),
                  "peak Δ rss MB": (v.peakRss / MB).toFixed(1),
                  "output bytes": v.bytes,
                  "× baseline time": (v.seconds / run.seconds).toFixed(2),
                };
              });
            }),
          });
        }
        return {
          name: `Exports: .xlsx of ${ROWS.toLocaleString("en")} rows over HTTP vs raw SQL cursor + exceljs stream, ${rounds} alternating rounds (${database.label.split(" (")[0]})`,
          rows: [],
          figures,
          tables,
        };
      } finally {
        await pool.end();
      }
    });
  },
};
