import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSetupError } from "./errors";
import type { SqlConnection } from "./sql-connection";

/**
 * Applies prisma/migrations/<timestamp>_<name>/migration.sql in order, writing the same
 * `_prisma_migrations` rows `prisma migrate deploy` writes (so the real CLI stays compatible
 * wherever it is available). Differences from Prisma, on purpose:
 * - each migration runs inside one transaction, so a failure leaves the database as it was
 *   (PostgreSQL DDL is transactional); the failure is recorded as a rolled-back row and the
 *   next start retries it after the file is fixed;
 * - a migration whose file changed after it was applied stops the start (Prisma only warns).
 * A session-level advisory lock makes concurrent starters wait, then see the work as done. Every
 * applied migration's checksum is verified before anything runs, so a refused start changes nothing.
 */

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../../prisma/migrations");

// Any constant works; it only has to be the same for every instance of this application.
export const MIGRATION_LOCK_KEY = 7_205_931_442;

/**
 * Advisory locks are per session and re-entrant, and PGlite has a single session: two runs on
 * one PGlite would both "hold" the lock. Runs in this process therefore also queue here, taken
 * AFTER the advisory lock so a run waiting on another session's lock never blocks this queue.
 */
let inProcess: Promise<void> = Promise.resolve();
const serialized = async <T>(fn: () => Promise<T>): Promise<T> => {
  const previous = inProcess;
  let release = () => {};
  inProcess = new Promise<void>((resolve) => {
    release = resolve;
  });
  try {
    await previous;
    return await fn();
  } finally {
    release();
  }
};

export type Migration = { name: string; sql: string; checksum: string };
export type MigrationLog = (message: string) => void;
export type MigrateResult = { applied: string[]; alreadyApplied: number };

type MigrationRow = {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
};

const MIGRATION_NAME = /^\d{14}_[a-z0-9_]+$/;

export const checksumOf = (sql: string): string => createHash("sha256").update(sql).digest("hex");

export const readMigrations = (dir: string = MIGRATIONS_DIR): Migration[] => {
  if (!existsSync(dir)) throw new DatabaseSetupError(`Migrations folder not found: ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      if (!MIGRATION_NAME.test(name)) {
        throw new DatabaseSetupError(`Migration folder "${name}" is not named <YYYYMMDDHHMMSS>_<name>`);
      }
      const file = path.join(dir, name, "migration.sql");
      if (!existsSync(file)) throw new DatabaseSetupError(`Migration ${name} has no migration.sql`);
      const sql = readFileSync(file, "utf8");
      return { name, sql, checksum: checksumOf(sql) };
    });
};

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

const errorText = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const { code, position } = error as Error & { code?: string; position?: string };
  return [error.message, code && `(SQLSTATE ${code})`, position && `at character ${position}`]
    .filter(Boolean)
    .join(" ");
};

const applyPending = async (
  connection: SqlConnection,
  migrations: Migration[],
  log: MigrationLog,
): Promise<MigrateResult> => {
  await connection.exec(CREATE_MIGRATIONS_TABLE);
  // Read the history only after taking the lock: another instance may just have migrated.
  const rows = await connection.query<MigrationRow>(
    `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at`,
  );
  const unfinished = rows.find((row) => row.finished_at === null && row.rolled_back_at === null);
  if (unfinished) {
    throw new DatabaseSetupError(
      `Migration ${unfinished.migration_name} was started but never finished (possibly by \`prisma migrate deploy\`). ` +
        `Check the database by hand, then mark it with \`prisma migrate resolve\` before starting again.`,
    );
  }
  const applied = new Map(
    rows.filter((row) => row.finished_at !== null).map((row) => [row.migration_name, row]),
  );
  const known = new Set(migrations.map((migration) => migration.name));
  for (const name of applied.keys()) {
    if (!known.has(name))
      log(`warning: the database has migration ${name}, which this version does not know`);
  }

  // Verify the whole history first: a refused start must not have applied anything.
  for (const migration of migrations) {
    const row = applied.get(migration.name);
    if (row && row.checksum !== migration.checksum) {
      throw new DatabaseSetupError(
        `Migration ${migration.name} was changed after it was applied (checksum ${row.checksum.slice(0, 12)}… in the database, ` +
          `${migration.checksum.slice(0, 12)}… on disk). Restore the original file and put the change in a new migration.`,
      );
    }
  }

  const done: string[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.name)) continue;
    log(`applying migration ${migration.name}`);
    const startedAt = new Date();
    try {
      await connection.exec("BEGIN");
      await connection.exec(migration.sql);
      await connection.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, $4, now(), 1)`,
        [randomUUID(), migration.checksum, migration.name, startedAt],
      );
      await connection.exec("COMMIT");
    } catch (error) {
      await connection.exec("ROLLBACK").catch(() => {});
      const reason = errorText(error);
      // Keep a trace of the failure; a rolled-back row does not block the next attempt.
      await connection
        .query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, rolled_back_at, logs)
           VALUES ($1, $2, $3, $4, now(), $5)`,
          [randomUUID(), migration.checksum, migration.name, startedAt, reason],
        )
        .catch(() => {});
      throw new DatabaseSetupError(
        `Migration ${migration.name} failed and was rolled back; the database is unchanged. ${reason}`,
        { cause: error },
      );
    }
    done.push(migration.name);
  }
  return { applied: done, alreadyApplied: applied.size };
};

export const migrate = async (
  connection: SqlConnection,
  options: { dir?: string; log?: MigrationLog; migrations?: Migration[] } = {},
): Promise<MigrateResult> => {
  const log = options.log ?? (() => {});
  const migrations = options.migrations ?? readMigrations(options.dir);
  await connection.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
  try {
    return await serialized(() => applyPending(connection, migrations, log));
  } finally {
    await connection.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
  }
};
