import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { z } from "zod";
import { adminUsers100kBench } from "./admin-users-100k.bench";
import { appAccount100kBench } from "./app-account-100k.bench";
import { appDashboardBench } from "./app-dashboard.bench";
import { authenticatedReadBench } from "./authenticated-read.bench";
import { exportsBench } from "./exports.bench";
import { financeGlBench } from "./finance-gl.bench";
import { financeLedgerBench } from "./finance-ledger.bench";
import { financeReportsBench } from "./finance-reports.bench";
import { graphqlBench } from "./graphql.bench";
import { memoryBench } from "./memory.bench";
import { oidcBench } from "./oidc.bench";
import { oidcPeerBench } from "./oidc-peer.bench";
import { type Figure, writeReport } from "./report";
import { tenantTransactionBench } from "./tenant-transaction.bench";
import { usersBench } from "./users.bench";
import { usersSearchBench } from "./users-search.bench";

// `npm run bench [-- --only <name>[,<name>…]] [--iterations <n>] [--users <n>]`. Benchmarks are not
// tests: each one measures our code beside a baseline run in the same process and reports the ratio;
// no speed limits here. `--iterations` and `--users` default per benchmark. Every run writes
// bench/results/latest.md: one table of every figure beside its baseline, then the details.

export type BenchTable = { title: string; rows: Array<Record<string, string | number>> };
export type BenchResult = {
  name: string;
  rows: Array<{ label: string; opsPerSecond: number; ratio: number }>;
  /** Figures other than ops/s, each beside its same-run baseline (CPU per request, memory). */
  figures?: Figure[];
  /** Further tables, for benchmarks whose figures are not operations per second. */
  tables?: BenchTable[];
};
export type BenchOptions = { iterations?: number; users?: number };
export type Bench = { name: string; run(options: BenchOptions): Promise<BenchResult> };

const benches: Bench[] = [
  tenantTransactionBench,
  authenticatedReadBench,
  usersBench,
  usersSearchBench,
  adminUsers100kBench,
  oidcBench,
  oidcPeerBench,
  financeLedgerBench,
  financeReportsBench,
  financeGlBench,
  exportsBench,
  graphqlBench,
  memoryBench,
  appDashboardBench,
  appAccount100kBench,
];

const ZArgs = z.object({
  only: z.string().optional(),
  iterations: z.coerce.number().int().min(1).max(1_000_000).optional(),
  users: z.coerce.number().int().min(100).max(10_000_000).optional(),
});

const main = async () => {
  const { values } = parseArgs({
    options: { only: { type: "string" }, iterations: { type: "string" }, users: { type: "string" } },
  });
  const args = ZArgs.parse(values);
  const only = args.only?.split(",").map((name) => name.trim());
  const selected = benches.filter((bench) => !only || only.includes(bench.name));
  const startedAt = new Date();
  const loadBefore = loadavg();
  const results: BenchResult[] = [];
  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
  if (selected.length === 0 || (only && selected.length !== only.length))
    throw new Error(`No benchmark named "${args.only}" (have: ${benches.map((b) => b.name).join(", ")})`);
  for (const bench of selected) {
    const options: BenchOptions = {
      ...(args.iterations === undefined ? {} : { iterations: args.iterations }),
      ...(args.users === undefined ? {} : { users: args.users }),
    };
    const result = await bench.run(options);
    results.push(result);
    // After every benchmark, so a run cut short still leaves what it measured.
    writeReport(results, { startedAt, loadBefore, command });
    console.log(`\n${result.name}`);
    if (result.rows.length > 0)
      console.table(
        result.rows.map((row) => ({
          case: row.label,
          "ops/s": Math.round(row.opsPerSecond),
          "× baseline time": row.ratio.toFixed(2),
        })),
      );
    for (const table of result.tables ?? []) {
      console.log(table.title);
      console.table(table.rows);
    }
  }
  console.log(`\nWrote ${writeReport(results, { startedAt, loadBefore, command })}`);
};

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
