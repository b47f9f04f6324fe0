import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import lockfile from "proper-lockfile";
import { DatabaseSetupError } from "./errors";

/**
 * The embedded database is single-process: PGlite must never have the same data directory
 * open twice. A lock (a `.lock` directory next to the data directory, refreshed every few
 * seconds, stale after a crash) makes a second server or a CLI command refuse with a clear
 * message instead. The holder's purpose and pid are noted in `lock-owner.json` for that message.
 */
export type DataDirLock = { release(): Promise<void> };

const describeOwner = (ownerFile: string): string => {
  try {
    const info = JSON.parse(readFileSync(ownerFile, "utf8")) as { pid?: number; purpose?: string };
    return `${info.purpose ?? "another process"} (pid ${info.pid ?? "?"})`;
  } catch {
    // no owner note (yet): keep the generic wording
    return "another process";
  }
};

export const lockDataDir = async (dataDir: string, purpose: string): Promise<DataDirLock> => {
  // Resolved, so "data" and "data/" share one lock, and it sits beside the folder, not inside it.
  const dir = path.resolve(dataDir);
  const ownerFile = path.join(dir, "lock-owner.json");
  let release: () => Promise<void>;
  try {
    mkdirSync(dir, { recursive: true });
    release = await lockfile.lock(dir, {
      lockfilePath: `${dir}.lock`,
      stale: 15_000,
      update: 5_000,
      realpath: false,
      // If the lock is lost (e.g. the machine slept past `stale`), stop rather than risk two writers.
      onCompromised: (error) => {
        console.error(`Lost the lock on the embedded database ${dir}: ${error.message}. Stopping.`);
        process.exit(70);
      },
    });
  } catch (error) {
    if ((error as { code?: string }).code === "ELOCKED") {
      throw new DatabaseSetupError(
        `The embedded database in ${dir} is in use by ${describeOwner(ownerFile)}. The embedded database allows one process at a time: ` +
          "stop the running server first (or point DATABASE_URL at PostgreSQL to run several).",
      );
    }
    throw new DatabaseSetupError(
      `Cannot use ${dir} for the embedded database: ${(error as Error).message}. Check DATA_DIR and its permissions.`,
      { cause: error },
    );
  }
  writeFileSync(ownerFile, JSON.stringify({ pid: process.pid, purpose, since: new Date().toISOString() }));
  let released: Promise<void> | undefined;
  return {
    // Idempotent: closing twice must not throw "Lock is already released".
    release: () => {
      released ??= (async () => {
        try {
          rmSync(ownerFile, { force: true });
        } catch {
          // a stale note only affects the wording of a later message; the lock itself must go
        }
        await release();
      })();
      return released;
    },
  };
};
