// The migration runner on a real, initially empty database (PGlite, or PostgreSQL when DATABASE_URL
// is set). The real migrations go into the `public` schema; each synthetic scenario gets a schema of
// its own (first on the search path), so one scratch database serves the whole file.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseSetupError } from "./errors";
import {
  checksumOf,
  MIGRATION_LOCK_KEY,
  MIGRATIONS_DIR,
  type MigrateResult,
  type Migration,
  migrate,
  readMigrations,
} from "./migrate";
import { connectPostgres, pgliteConnection, type SqlConnection } from "./sql-connection";
import { createEmptyTestDatabase, testDatabaseKind } from "./testing";

type Scratch = Awaited<ReturnType<typeof createEmptyTestDatabase>>;

const scratches: Scratch[] = [];
const connections: SqlConnection[] = [];
const tempDirs: string[] = [];
let conn: SqlConnection;
let openConnection: () => Promise<SqlConnection>;

/** A connection to a scratch database (PGlite: another handle on the same single session). */
const connectTo = async (scratch: Scratch): Promise<SqlConnection> => {
  const connection = scratch.pglite
    ? pgliteConnection(scratch.pglite)
    : await connectPostgres(scratch.url ?? "");
  connections.push(connection);
  return connection;
};

beforeAll(async () => {
  const scratch = await createEmptyTestDatabase();
  scratches.push(scratch);
  openConnection = () => connectTo(scratch);
  conn = await openConnection();
});

afterAll(async () => {
  for (const connection of connections) await connection.close().catch(() => {});
  for (const scratch of scratches) await scratch.drop();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

const synthetic = (name: string, sql: string): Migration => ({ name, sql, checksum: checksumOf(sql) });

/** A new empty schema, made the target of unqualified names (and of `_prisma_migrations`). */
const useFreshSchema = async (schema: string, connection = conn) => {
  await connection.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
};

const tables = async (connection = conn): Promise<string[]> =>
  (
    await connection.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1",
    )
  ).map((row) => row.name);

type HistoryRow = {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
  logs: string | null;
};

const history = (connection = conn): Promise<HistoryRow[]> =>
  connection.query<HistoryRow>(
    `SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count, logs
     FROM "_prisma_migrations" ORDER BY started_at, migration_name`,
  );

const finishedNames = async (connection = conn) =>
  (await history(connection)).filter((row) => row.finished_at !== null).map((row) => row.migration_name);

/** What a test can observe about the current schema: its tables and the applied history. */
const snapshot = async (connection = conn) => ({
  tables: await tables(connection),
  history: await history(connection),
});

const rejection = async (promise: Promise<unknown>): Promise<DatabaseSetupError> => {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(DatabaseSetupError);
  return error as DatabaseSetupError;
};

describe("the real migrations on an empty database", () => {
  const real = readMigrations();
  let first: MigrateResult;
  const logged: string[] = [];

  beforeAll(async () => {
    await conn.exec("SET search_path TO public");
    first = await migrate(conn, { log: (message) => logged.push(message) });
  });

  it("applies every migration in order and logs each", () => {
    expect(real.length).toBeGreaterThanOrEqual(2);
    expect(first).toEqual({ applied: real.map((m) => m.name), alreadyApplied: 0 });
    expect(logged).toEqual(real.map((m) => `applying migration ${m.name}`));
  });

  it("creates the schema (tables, row-level security)", async () => {
    const names = await tables();
    expect(names).toEqual(
      expect.arrayContaining(["_prisma_migrations", "tenants", "users", "outbox_events"]),
    );
    const [users] = await conn.query<{ forced: boolean }>(
      "SELECT relforcerowsecurity AS forced FROM pg_class WHERE oid = 'public.users'::regclass",
    );
    expect(users?.forced).toBe(true);
  });

  it("writes the rows `prisma migrate deploy` writes: sha256 of the file, finished, one step", async () => {
    const rows = await conn.query<HistoryRow & { id: string; started_at: Date }>(
      `SELECT * FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows.map((row) => row.migration_name)).toEqual(real.map((m) => m.name));
    for (const row of rows) {
      const file = readFileSync(path.join(MIGRATIONS_DIR, row.migration_name, "migration.sql"));
      expect(row.checksum, row.migration_name).toBe(createHash("sha256").update(file).digest("hex"));
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.started_at.getTime()).toBeLessThanOrEqual(row.finished_at?.getTime() ?? 0);
      expect(row).toMatchObject({ rolled_back_at: null, applied_steps_count: 1, logs: null });
    }
  });

  it("keeps the `_prisma_migrations` table in Prisma's exact shape", async () => {
    const columns = await conn.query<{ name: string; type: string; nullable: string; length: number | null }>(
      `SELECT column_name AS name, data_type AS type, is_nullable AS nullable, character_maximum_length AS length
       FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(columns).toEqual([
      { name: "id", type: "character varying", nullable: "NO", length: 36 },
      { name: "checksum", type: "character varying", nullable: "NO", length: 64 },
      { name: "finished_at", type: "timestamp with time zone", nullable: "YES", length: null },
      { name: "migration_name", type: "character varying", nullable: "NO", length: 255 },
      { name: "logs", type: "text", nullable: "YES", length: null },
      { name: "rolled_back_at", type: "timestamp with time zone", nullable: "YES", length: null },
      { name: "started_at", type: "timestamp with time zone", nullable: "NO", length: null },
      { name: "applied_steps_count", type: "integer", nullable: "NO", length: null },
    ]);
  });

  it("a second run applies nothing and leaves the history as it was", async () => {
    const before = await snapshot();
    const logs: string[] = [];
    const second = await migrate(conn, { log: (message) => logs.push(message) });
    expect(second).toEqual({ applied: [], alreadyApplied: real.length });
    expect(logs).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});

describe("a migration changed after it was applied", () => {
  it("is refused with a message naming it, and nothing else is applied", async () => {
    await useFreshSchema("changed");
    const m1 = synthetic("20260102000000_first", "CREATE TABLE c1 (id int);");
    const m2 = synthetic("20260103000000_second", "CREATE TABLE c2 (id int);");
    await migrate(conn, { migrations: [m1, m2] });
    const before = await snapshot();

    const edited = synthetic(m1.name, "CREATE TABLE c1 (id bigint);");
    // A new migration that sorts BEFORE the edited one (a merged branch) and one after it.
    const earlier = synthetic("20260101000000_from_a_branch", "CREATE TABLE c0 (id int);");
    const later = synthetic("20260104000000_later", "CREATE TABLE c3 (id int);");
    const error = await rejection(migrate(conn, { migrations: [earlier, edited, m2, later] }));
    expect(error.message).toContain(`Migration ${m1.name} was changed after it was applied`);
    expect(error.message).toContain(m1.checksum.slice(0, 12));
    expect(error.message).toContain(edited.checksum.slice(0, 12));
    expect(await snapshot()).toEqual(before);
    expect(await tables()).not.toContain("c0");

    // Restoring the original file lets the start go on.
    const result = await migrate(conn, { migrations: [earlier, m1, m2, later] });
    expect(result.applied).toEqual([earlier.name, later.name]);
  });
});

describe("a failing migration", () => {
  const ok = synthetic("20260101000000_ok", "CREATE TABLE ok_table (id int PRIMARY KEY);");
  const badSql = [
    "CREATE TABLE half_a (id int);",
    "INSERT INTO half_a VALUES (1);",
    "ALTER TABLE ok_table ADD COLUMN note text;",
    "SELECT * FROM no_such_table;",
    "CREATE TABLE half_b (id int);",
  ].join("\n");
  const bad = synthetic("20260102000000_half_done", badSql);
  const after = synthetic("20260103000000_after", "CREATE TABLE after_table (id int);");

  it("stops with a message naming it and the SQL error, leaving the database exactly as it was", async () => {
    await useFreshSchema("failing");
    await migrate(conn, { migrations: [ok] });
    const before = await snapshot();

    const logs: string[] = [];
    const error = await rejection(
      migrate(conn, { migrations: [ok, bad, after], log: (message) => logs.push(message) }),
    );
    expect(error.message).toContain(`Migration ${bad.name} failed and was rolled back`);
    expect(error.message).toContain('relation "no_such_table" does not exist');
    expect(error.message).toContain("SQLSTATE 42P01");
    expect(logs).toEqual([`applying migration ${bad.name}`]);

    // No half-created table, no half-added column, and the later migration never ran.
    expect(await tables()).toEqual(before.tables);
    const columns = await conn.query<{ name: string }>(
      "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'ok_table'",
    );
    expect(columns.map((c) => c.name)).toEqual(["id"]);
    expect(await finishedNames()).toEqual([ok.name]);

    // The failure leaves a rolled-back trace (as `prisma migrate resolve --rolled-back` would),
    // which does not block the next start.
    const trace = (await history()).find((row) => row.migration_name === bad.name);
    expect(trace).toMatchObject({ finished_at: null, applied_steps_count: 0, checksum: bad.checksum });
    expect(trace?.rolled_back_at).toBeInstanceOf(Date);
    expect(trace?.logs).toContain('relation "no_such_table" does not exist');
  });

  it("is applied by the next run once fixed", async () => {
    await conn.exec("SET search_path TO failing");
    const fixed = synthetic(bad.name, badSql.replace("SELECT * FROM no_such_table;\n", ""));
    const result = await migrate(conn, { migrations: [ok, fixed, after] });
    expect(result).toEqual({ applied: [fixed.name, after.name], alreadyApplied: 1 });
    expect(await tables()).toEqual(["_prisma_migrations", "after_table", "half_a", "half_b", "ok_table"]);
    const row = (await history()).find((r) => r.migration_name === fixed.name && r.finished_at !== null);
    expect(row).toMatchObject({ checksum: fixed.checksum, applied_steps_count: 1, rolled_back_at: null });
    expect(await conn.query("SELECT id FROM half_a")).toEqual([{ id: 1 }]);
  });
});

describe("an unfinished migration row", () => {
  it("(as a crashed `prisma migrate deploy` leaves it) refuses to start until resolved", async () => {
    await useFreshSchema("unfinished");
    const crashed = synthetic("20260101000000_crashed", "CREATE TABLE crashed_table (id int);");
    const pending = synthetic("20260102000000_pending", "CREATE TABLE pending_table (id int);");
    await migrate(conn, { migrations: [] });
    await conn.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, logs, started_at, applied_steps_count)
       VALUES ($1, $2, $3, 'db error: connection lost', now(), 0)`,
      ["7a4a1f0e-0000-4000-8000-000000000001", crashed.checksum, crashed.name],
    );
    const before = await snapshot();

    const error = await rejection(migrate(conn, { migrations: [crashed, pending] }));
    expect(error.message).toContain(`Migration ${crashed.name} was started but never finished`);
    expect(error.message).toContain("prisma migrate resolve");
    expect(await snapshot()).toEqual(before);

    // `prisma migrate resolve --rolled-back` sets rolled_back_at; then the start retries it.
    await conn.exec(`UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE finished_at IS NULL`);
    const result = await migrate(conn, { migrations: [crashed, pending] });
    expect(result.applied).toEqual([crashed.name, pending.name]);
  });
});

describe("migration files", () => {
  it("apply with $$ function bodies and DO blocks containing semicolons", async () => {
    await useFreshSchema("dollars");
    const sql = `
      CREATE FUNCTION add_tax(amount bigint) RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE
        rate bigint := 12; -- a semicolon; and a quote ' inside the body
      BEGIN
        RETURN amount + amount * rate / 100;
      END
      $$;
      CREATE TABLE notes (body text DEFAULT 'it''s $$ not a body; really');
      DO $block$
      BEGIN
        INSERT INTO notes DEFAULT VALUES;
        IF (SELECT count(*) FROM notes) <> 1 THEN RAISE EXCEPTION 'expected one note; got more'; END IF;
      END
      $block$;`;
    const result = await migrate(conn, { migrations: [synthetic("20260101000000_functions", sql)] });
    expect(result.applied).toEqual(["20260101000000_functions"]);
    expect(await conn.query("SELECT add_tax(100)::int AS taxed, (SELECT body FROM notes) AS body")).toEqual([
      { taxed: 112, body: "it's $$ not a body; really" },
    ]);
  });

  it("are read from a folder in name order and applied from it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hisob-migrations-"));
    tempDirs.push(dir);
    const write = (name: string, sql: string) => {
      mkdirSync(path.join(dir, name));
      writeFileSync(path.join(dir, name, "migration.sql"), sql);
    };
    write("20260102000000_second", "ALTER TABLE from_dir ADD COLUMN label text;\n");
    write("20260101000000_first", "CREATE TABLE from_dir (id int);\n");
    writeFileSync(path.join(dir, "migration_lock.toml"), 'provider = "postgresql"\n');

    const read = readMigrations(dir);
    expect(read.map((m) => m.name)).toEqual(["20260101000000_first", "20260102000000_second"]);
    expect(read[0]?.checksum).toBe(checksumOf("CREATE TABLE from_dir (id int);\n"));

    await useFreshSchema("from_folder");
    expect((await migrate(conn, { dir })).applied).toEqual(["20260101000000_first", "20260102000000_second"]);
    expect(await conn.query("SELECT label FROM from_dir")).toEqual([]);
  });

  it("refuse a missing folder, a badly named folder and a folder without migration.sql", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hisob-migrations-"));
    tempDirs.push(dir);
    expect(() => readMigrations(path.join(dir, "nope"))).toThrow(DatabaseSetupError);
    expect(() => readMigrations(path.join(dir, "nope"))).toThrow(/Migrations folder not found/);

    mkdirSync(path.join(dir, "20260101000000_empty"));
    expect(() => readMigrations(dir)).toThrow("Migration 20260101000000_empty has no migration.sql");
    rmSync(path.join(dir, "20260101000000_empty"), { recursive: true });
    mkdirSync(path.join(dir, "add-users"));
    expect(() => readMigrations(dir)).toThrow('Migration folder "add-users" is not named');
  });

  it("warns about a migration the database has but this version does not know", async () => {
    await useFreshSchema("newer_database");
    const known = synthetic("20260101000000_known", "SELECT 1;");
    const future = synthetic("20270101000000_from_a_newer_version", "SELECT 2;");
    await migrate(conn, { migrations: [known, future] });
    const logs: string[] = [];
    const result = await migrate(conn, { migrations: [known], log: (message) => logs.push(message) });
    expect(result).toEqual({ applied: [], alreadyApplied: 2 });
    expect(logs).toEqual([
      `warning: the database has migration ${future.name}, which this version does not know`,
    ]);
  });
});

describe("concurrent runs", () => {
  it("two connections migrating one fresh database at once apply each migration exactly once", async () => {
    let first: SqlConnection;
    let second: SqlConnection;
    if (testDatabaseKind() === "postgres") {
      const fresh = await createEmptyTestDatabase();
      scratches.push(fresh);
      [first, second] = [await connectTo(fresh), await connectTo(fresh)];
    } else {
      // PGlite has one session, so both handles share it (and its search path).
      await useFreshSchema("concurrent");
      [first, second] = [await openConnection(), await openConnection()];
    }
    const real = readMigrations();
    const results = await Promise.all([migrate(first), migrate(second)]);

    const applied = results.map((result) => result.applied).sort((a, b) => b.length - a.length);
    expect(applied).toEqual([real.map((m) => m.name), []]);
    const counts = await first.query<{ name: string; finished: number; failed: number }>(
      `SELECT migration_name AS name,
              count(*) FILTER (WHERE finished_at IS NOT NULL)::int AS finished,
              count(*) FILTER (WHERE finished_at IS NULL)::int AS failed
       FROM "_prisma_migrations" GROUP BY migration_name ORDER BY migration_name`,
    );
    expect(counts).toEqual(real.map((m) => ({ name: m.name, finished: 1, failed: 0 })));
  });

  it.runIf(testDatabaseKind() === "postgres")(
    "a run waits while another session holds the migration lock, then applies",
    async () => {
      const holder = await openConnection();
      const waiter = await openConnection();
      await waiter.exec("CREATE SCHEMA lock_waiter; SET search_path TO lock_waiter");
      await holder.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);

      const pending = migrate(waiter, {
        migrations: [synthetic("20260101000000_waited", "CREATE TABLE waited (id int);")],
      });
      // Poll the lock table (no timers): the run must be queued on the advisory lock.
      const isWaiting = async () =>
        (
          await holder.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_locks
             WHERE locktype = 'advisory' AND NOT granted
               AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          )
        )[0]?.n === 1;
      for (let i = 0; i < 10_000 && !(await isWaiting()); i++) {
        // another round trip
      }
      expect(await isWaiting()).toBe(true);
      const made = await holder.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'lock_waiter'",
      );
      expect(made).toEqual([{ n: 0 }]);

      await holder.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
      expect((await pending).applied).toEqual(["20260101000000_waited"]);
    },
  );
});
