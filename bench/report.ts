import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import type { BenchResult } from "./run";

/** One line of the report: our figure beside its baseline measured in the same run. */
export type Figure = {
  case: string;
  ours: string;
  baseline: string;
  /** Ours ÷ baseline, in the figure's own unit. */
  ratio: number;
  /** The lowest and highest of the per-round ratios, when the bench measured rounds: a target counts as met when the low end meets it. */
  spread?: [number, number];
  /** Which way is better for this figure (throughput: higher; time, CPU, memory: lower). */
  better: "higher" | "lower";
};

/** The figures of a result: its ops/s rows (each beside the baseline row above it) and any others. */
export const figuresOf = (result: BenchResult): Figure[] => {
  const figures: Figure[] = [];
  let baseline: { label: string; opsPerSecond: number } | undefined;
  for (const row of result.rows) {
    if (row.ratio === 1 || !baseline) {
      baseline = row;
      continue;
    }
    figures.push({
      case: `${row.label} vs ${baseline.label}`,
      ours: `${Math.round(row.opsPerSecond)}/s`,
      baseline: `${Math.round(baseline.opsPerSecond)}/s`,
      ratio: row.opsPerSecond / baseline.opsPerSecond,
      better: "higher",
    });
  }
  return [...figures, ...(result.figures ?? [])];
};

const cell = (value: string | number) => String(value).replaceAll("|", "\\|").replaceAll("\n", " ");

const table = (rows: Array<Record<string, string | number>>): string[] => {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return [
    `| ${columns.map(cell).join(" | ")} |`,
    `| ${columns.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${columns.map((column) => cell(row[column] ?? "")).join(" | ")} |`),
  ];
};

/** Writes bench/results/latest.md: one table of every figure beside its baseline, then each bench's details. */
export const writeReport = (
  results: BenchResult[],
  run: { startedAt: Date; loadBefore: number[]; command: string },
): string => {
  const file = path.join(import.meta.dirname, "results", "latest.md");
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(" / ");
  const lines = [
    "# Benchmarks: latest run",
    "",
    `\`${run.command}\`, started ${run.startedAt.toISOString()}, ${Math.round((Date.now() - run.startedAt.getTime()) / 1000)} s;`,
    `Node ${process.version}, ${cpus().length} cores; load average (1/5/15 min) ${load(run.loadBefore)} at the start,`,
    `${load(loadavg())} at the end. Each figure is beside its baseline measured in the same process and run;`,
    "on a shared machine compare ratios, not absolute figures.",
    "",
    ...table(
      results.flatMap((result) =>
        figuresOf(result).map((figure) => ({
          Benchmark: result.name,
          Case: figure.case,
          Ours: figure.ours,
          Baseline: figure.baseline,
          "Ours ÷ baseline": figure.ratio.toFixed(2),
          "Spread (rounds)": figure.spread
            ? `${figure.spread[0].toFixed(2)}–${figure.spread[1].toFixed(2)}`
            : "",
          Better: figure.better,
        })),
      ),
    ),
    "",
    ...results.flatMap((result) => [
      `## ${result.name}`,
      "",
      ...(result.tables ?? []).flatMap((extra) => [`${extra.title}:`, "", ...table(extra.rows), ""]),
    ]),
  ];
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
};
