import { parseArgs } from "node:util";
import { z } from "zod";
import { tenantTransactionBench } from "./tenant-transaction.bench";

// `npm run bench [-- --only <name>] [--iterations <n>]`. Benchmarks are not tests: each one measures
// our code beside a baseline run in the same process and reports the ratio; no speed limits here.

export type BenchResult = {
  name: string;
  rows: Array<{ label: string; opsPerSecond: number; ratio: number }>;
};
export type Bench = { name: string; run(options: { iterations: number }): Promise<BenchResult> };

const benches: Bench[] = [tenantTransactionBench];

const ZArgs = z.object({
  only: z.string().optional(),
  iterations: z.coerce.number().int().min(10).max(1_000_000).default(2_000),
});

const main = async () => {
  const { values } = parseArgs({ options: { only: { type: "string" }, iterations: { type: "string" } } });
  const args = ZArgs.parse(values);
  const selected = benches.filter((bench) => !args.only || bench.name === args.only);
  if (selected.length === 0)
    throw new Error(`No benchmark named "${args.only}" (have: ${benches.map((b) => b.name).join(", ")})`);
  for (const bench of selected) {
    const result = await bench.run({ iterations: args.iterations });
    console.log(`\n${result.name}`);
    console.table(
      result.rows.map((row) => ({
        case: row.label,
        "ops/s": Math.round(row.opsPerSecond),
        "× baseline time": row.ratio.toFixed(2),
      })),
    );
  }
};

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
