import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Runs `fn` `iterations` times after a warm-up and returns operations per second. */
export const opsPerSecond = async (
  iterations: number,
  fn: (i: number) => Promise<unknown>,
): Promise<number> => {
  for (let i = 0; i < Math.min(100, iterations); i++) await fn(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await fn(i);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return iterations / seconds;
};

/** Seconds since `start` (a `process.hrtime.bigint()`). */
export const seconds = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e9;

/** The p-th percentile (nearest rank) of `samples`. */
export const percentile = (samples: readonly number[], p: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
};

export const median = (samples: readonly number[]): number => percentile(samples, 50);

const exposeGc = (): (() => void) | undefined => {
  const global = globalThis as { gc?: () => void };
  if (global.gc) return global.gc;
  try {
    // Without --expose-gc on the command line: set the flag, then take gc from a fresh context.
    setFlagsFromString("--expose-gc");
    return runInNewContext("gc") as () => void;
  } catch {
    return undefined;
  }
};
const gc = exposeGc();

/** A full garbage collection when one can be forced (so "before" readings are comparable). */
export const forceGc = Object.assign(() => gc?.(), { available: gc !== undefined });

/**
 * Runs `fn` once, sampling rss and heapUsed every `intervalMs`; peaks are reported minus the
 * readings taken just before (after a forced GC). Samples only land when the event loop is free.
 */
export const withMemorySampling = async <T>(
  fn: () => Promise<T>,
  intervalMs = 20,
): Promise<{ result: T; seconds: number; peakRss: number; peakHeap: number }> => {
  forceGc();
  forceGc();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sample = () => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  };
  const timer = setInterval(sample, intervalMs);
  const start = process.hrtime.bigint();
  try {
    const result = await fn();
    sample();
    return {
      result,
      seconds: seconds(start),
      peakRss: peakRss - before.rss,
      peakHeap: peakHeap - before.heapUsed,
    };
  } finally {
    clearInterval(timer);
  }
};
