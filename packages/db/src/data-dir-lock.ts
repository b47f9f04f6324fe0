import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import lockfile from "proper-lockfile";
import { DatabaseSetupError } from "./errors";

/**
 * The embedded database is single-process: PGlite must never have the same data directory
 * open twice. A lock (a `.lock` directory refreshed every few seconds, stale after a crash)
 * makes a second server or a CLI command refuse with a clear message instead.
 */
export type DataDirLock = { release(): Promise<void> };

export const lockDataDir = async (dataDir: string, purpose: string): Promise<DataDirLock> => {
  mkdirSync(dataDir, { recursive: true });
  const ownerFile = path.join(dataDir, "lock-owner.json");
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dataDir, {
      lockfilePath: `${dataDir}.lock`,
      stale: 15_000,
      update: 5_000,
      realpath: false,
      // If the lock is lost (e.g. the machine slept past `stale`), stop rather than risk two writers.
      onCompromised: (error) => {
        console.error(`Lost the lock on the embedded database ${dataDir}: ${error.message}. Stopping.`);
        process.exit(70);
      },
    });
  } catch (error) {
    if ((error as { code?: string }).code !== "ELOCKED") throw error;
    let owner = "another process";
    try {
      const info = JSON.parse(readFileSync(ownerFile, "utf8")) as { pid?: number; purpose?: string };
      owner = `${info.purpose ?? "another process"} (pid ${info.pid ?? "?"})`;
    } catch {
      // no owner note: keep the generic wording
    }
    throw new DatabaseSetupError(
      `The embedded database in ${dataDir} is in use by ${owner}. The embedded database allows one process at a time: ` +
        "stop the running server first (or point DATABASE_URL at PostgreSQL to run several).",
    );
  }
  writeFileSync(ownerFile, JSON.stringify({ pid: process.pid, purpose, since: new Date().toISOString() }));
  return { release: () => release() };
};
