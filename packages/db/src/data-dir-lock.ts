import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
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

const STALE_MS = 15_000;
const UPDATE_MS = 5_000;

type Owner = { pid?: number; purpose?: string; host?: string };

const readOwner = (ownerFile: string): Owner | null => {
  try {
    return JSON.parse(readFileSync(ownerFile, "utf8")) as Owner;
  } catch {
    return null; // no owner note (yet)
  }
};

const describeOwner = (owner: Owner | null): string =>
  owner ? `${owner.purpose ?? "another process"} (pid ${owner.pid ?? "?"})` : "another process";

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as { code?: string }).code === "EPERM";
  }
};

/** Milliseconds since the holder last refreshed the lock (Infinity when it is gone). */
const lockAge = (lockDir: string): number => {
  try {
    return Date.now() - statSync(lockDir).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
};

/**
 * What to do about a lock someone holds:
 * - its holder is provably dead (this host, its pid gone — a crash or SIGKILL): take it over now;
 * - its holder runs here and refreshes the lock: refuse (a second server or CLI on one database);
 * - anything else (another host, no owner note, a pid that may have been reused by another program
 *   while the lock stopped being refreshed): wait for the lock to go stale, and say so.
 */
const verdictOn = (owner: Owner | null, lockDir: string): "take-over" | "refuse" | "wait" => {
  const sameHost = owner?.host === hostname();
  if (sameHost && typeof owner?.pid === "number" && !isRunning(owner.pid)) return "take-over";
  if (sameHost && lockAge(lockDir) < 2 * UPDATE_MS) return "refuse";
  return "wait";
};

export const lockDataDir = async (
  dataDir: string,
  purpose: string,
  options: { log?: (message: string) => void } = {},
): Promise<DataDirLock> => {
  // Resolved, so "data" and "data/" share one lock, and it sits beside the folder, not inside it.
  const dir = path.resolve(dataDir);
  const ownerFile = path.join(dir, "lock-owner.json");
  const lockDir = `${dir}.lock`;
  const log = options.log ?? ((message: string) => console.warn(`hisob: ${message}`));
  const take = (retries: number) =>
    lockfile.lock(dir, {
      lockfilePath: lockDir,
      stale: STALE_MS,
      update: UPDATE_MS,
      realpath: false,
      retries: retries === 0 ? 0 : { retries, minTimeout: 1_000, maxTimeout: 1_000, factor: 1 },
      // If the lock is lost (e.g. the machine slept past `stale`), stop rather than risk two writers.
      onCompromised: (error) => {
        console.error(`Lost the lock on the embedded database ${dir}: ${error.message}. Stopping.`);
        process.exit(70);
      },
    });
  let release: () => Promise<void>;
  try {
    mkdirSync(dir, { recursive: true });
    try {
      release = await take(0);
    } catch (error) {
      if ((error as { code?: string }).code !== "ELOCKED") throw error;
      const owner = readOwner(ownerFile);
      const verdict = verdictOn(owner, lockDir);
      if (verdict === "refuse") throw error;
      if (verdict === "take-over") {
        log(
          `the embedded database in ${dir} was left locked by ${describeOwner(owner)}, which is gone; taking it over`,
        );
        rmSync(lockDir, { recursive: true, force: true });
        release = await take(0);
      } else {
        log(
          `the embedded database in ${dir} is locked by ${describeOwner(owner)}${owner?.host ? ` on ${owner.host}` : ""}, which may still be running; waiting up to ${Math.round((STALE_MS + 2 * UPDATE_MS) / 1000)} s for it to stop or its lock to go stale`,
        );
        release = await take(Math.ceil((STALE_MS + 2 * UPDATE_MS) / 1000));
      }
    }
  } catch (error) {
    if ((error as { code?: string }).code === "ELOCKED") {
      throw new DatabaseSetupError(
        `The embedded database in ${dir} is in use by ${describeOwner(readOwner(ownerFile))}. The embedded database allows one process at a time: ` +
          "stop the running server first (or point DATABASE_URL at PostgreSQL to run several).",
      );
    }
    throw new DatabaseSetupError(
      `Cannot use ${dir} for the embedded database: ${(error as Error).message}. Check DATA_DIR and its permissions.`,
      { cause: error },
    );
  }
  writeFileSync(
    ownerFile,
    JSON.stringify({ pid: process.pid, host: hostname(), purpose, since: new Date().toISOString() }),
  );
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
