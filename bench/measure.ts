import { once } from "node:events";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Worker } from "node:worker_threads";

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

export type ConcurrentRun = { opsPerSecond: number; seconds: number; latenciesMs: number[] };

/** `workers` loops running `op` `perWorker` times each, all started together; wall-clock throughput. */
export const runConcurrent = async (
  workers: number,
  perWorker: number,
  op: (worker: number, i: number) => Promise<void>,
): Promise<ConcurrentRun> => {
  const latenciesMs: number[] = [];
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let i = 0; i < perWorker; i++) {
        const opStart = performance.now();
        await op(worker, i);
        latenciesMs.push(performance.now() - opStart);
      }
    }),
  );
  const elapsed = seconds(start);
  return { opsPerSecond: (workers * perWorker) / elapsed, seconds: elapsed, latenciesMs };
};

/** The run with the median throughput (of an odd number of rounds). */
export const medianRun = (runs: readonly ConcurrentRun[]): ConcurrentRun => {
  const sorted = [...runs].sort((a, b) => a.opsPerSecond - b.opsPerSecond);
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (!middle) throw new Error("medianRun needs at least one run");
  return middle;
};

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

// Samples the process's rss from a worker thread, so a busy main thread cannot hide a peak.
const RSS_SAMPLER = `
const { workerData, parentPort } = require("node:worker_threads");
const peak = new Float64Array(workerData.buffer);
const sample = () => { peak[0] = Math.max(peak[0], process.memoryUsage.rss()); };
sample();
setInterval(sample, workerData.intervalMs);
parentPort.postMessage("ready");
`;

export type MemoryRun<T> = {
  result: T;
  seconds: number;
  /** Peak rss minus rss before (process-wide, sampled from a worker thread). */
  peakRss: number;
  /** Peak heapUsed minus heapUsed before (sampled on the main thread; see `heapSamples`). */
  peakHeap: number;
  /** Peak external memory (Buffers, zlib) minus before, sampled with heapUsed. */
  peakExternal: number;
  /** The longest the main thread's event loop went without running a timer, in seconds. */
  longestStall: number;
};

/**
 * Runs `fn` once, sampling memory every `intervalMs`: rss from a worker thread, heapUsed and external on
 * the main thread (its timer, plus every call of the `sample` function handed to `fn`, e.g. per output
 * chunk). Peaks are reported minus the readings taken just before, after a forced GC.
 */
export const withMemorySampling = async <T>(
  fn: (sample: () => void) => Promise<T>,
  intervalMs = 20,
): Promise<MemoryRun<T>> => {
  const shared = new SharedArrayBuffer(8);
  const peakRssBox = new Float64Array(shared);
  const worker = new Worker(RSS_SAMPLER, { eval: true, workerData: { buffer: shared, intervalMs } });
  try {
    await once(worker, "message");
    forceGc();
    forceGc();
    const before = process.memoryUsage();
    peakRssBox[0] = before.rss;
    let peakHeap = before.heapUsed;
    let peakExternal = before.external;
    let lastTick = performance.now();
    let longestStall = 0;
    const sample = () => {
      const now = process.memoryUsage();
      peakHeap = Math.max(peakHeap, now.heapUsed);
      peakExternal = Math.max(peakExternal, now.external);
    };
    const timer = setInterval(() => {
      const now = performance.now();
      longestStall = Math.max(longestStall, now - lastTick);
      lastTick = now;
      sample();
    }, intervalMs);
    const start = process.hrtime.bigint();
    try {
      const result = await fn(sample);
      const elapsed = seconds(start);
      sample();
      longestStall = Math.max(longestStall, performance.now() - lastTick);
      return {
        result,
        seconds: elapsed,
        peakRss: (peakRssBox[0] ?? before.rss) - before.rss,
        peakHeap: peakHeap - before.heapUsed,
        peakExternal: peakExternal - before.external,
        longestStall: longestStall / 1000,
      };
    } finally {
      clearInterval(timer);
    }
  } finally {
    await worker.terminate();
  }
};
