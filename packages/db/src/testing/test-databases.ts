import { randomBytes } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { createDb, type Db } from "../create-db";
import { migrate } from "../migrate";
import { PGLITE_EXTENSIONS } from "../pglite-extensions";
import { connectPostgres, pgliteConnection } from "../sql-connection";

/**
 * Fast fresh databases for integration tests: migrate ONE template per run, then give every test
 * file its own copy — PostgreSQL `CREATE DATABASE … TEMPLATE`, PGlite a data-dir dump loaded into a
 * new in-memory instance. Never re-run the migrations per test.
 *
 * On PostgreSQL (`DATABASE_URL` set: an admin URL, e.g. the `postgres` superuser) the application
 * connects as a NON-superuser role that owns the tables, as in production, so row-level security
 * is exercised exactly as it will run.
 */

export const TEST_OWNER_ROLE = "hisob_test_owner";
const TEST_OWNER_PASSWORD = "hisob_test_owner";

export type TestTemplate =
  | { kind: "pglite"; dumpFile: string }
  | { kind: "postgres"; adminUrl: string; template: string; prefix: string };

const withDatabase = (url: string, database: string, user?: { name: string; password: string }): string => {
  const next = new URL(url);
  next.pathname = `/${database}`;
  if (user) {
    next.username = user.name;
    next.password = user.password;
  }
  return next.toString();
};

const ownerUrl = (adminUrl: string, database: string) =>
  withDatabase(adminUrl, database, { name: TEST_OWNER_ROLE, password: TEST_OWNER_PASSWORD });

/** Runs once per test run (vitest globalSetup): migrates the template. */
export const prepareTemplate = async (options: {
  adminUrl?: string;
  tmpDir: string;
}): Promise<TestTemplate> => {
  if (!options.adminUrl) {
    const pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
    await migrate(pgliteConnection(pglite));
    const dump = await pglite.dumpDataDir("none");
    const dumpFile = `${options.tmpDir}/pglite-template-${process.pid}.tar`;
    writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
    await pglite.close();
    return { kind: "pglite", dumpFile };
  }
  const prefix = `hisob_t${Date.now().toString(36)}${randomBytes(2).toString("hex")}`;
  const template = `${prefix}_template`;
  await createOwnedDatabase(options.adminUrl, template);
  await migrateOwned(options.adminUrl, template);
  return { kind: "postgres", adminUrl: options.adminUrl, template, prefix };
};

/** Creates `database` owned by the test owner (and the app's roles, once per cluster) unless it exists. */
const createOwnedDatabase = async (adminUrl: string, database: string) => {
  const admin = await connectPostgres(adminUrl);
  try {
    // The app's roles exist up front so the non-superuser owner needs no CREATEROLE (as a DBA would set up).
    await admin.exec(`
      DO $$ DECLARE r text; BEGIN
        FOREACH r IN ARRAY ARRAY['hisob_tenant', 'hisob_system', 'hisob_platform'] LOOP
          IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN EXECUTE format('CREATE ROLE %I NOLOGIN', r); END IF;
        END LOOP;
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${TEST_OWNER_ROLE}') THEN
          CREATE ROLE ${TEST_OWNER_ROLE} LOGIN NOSUPERUSER NOCREATEROLE NOBYPASSRLS PASSWORD '${TEST_OWNER_PASSWORD}';
        END IF;
      END $$;
      GRANT hisob_tenant, hisob_system, hisob_platform TO ${TEST_OWNER_ROLE};`);
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (exists.length > 0) return false;
    await admin.exec(`CREATE DATABASE ${database} OWNER ${TEST_OWNER_ROLE}`);
    return true;
  } finally {
    await admin.close();
  }
};

const migrateOwned = async (adminUrl: string, database: string) => {
  const owner = await connectPostgres(ownerUrl(adminUrl, database));
  try {
    await migrate(owner);
  } finally {
    await owner.close();
  }
};

/** Runs once per test run, after all files: drops every database the run created. */
export const dropTemplate = async (template: TestTemplate): Promise<void> => {
  if (template.kind === "pglite") {
    rmSync(template.dumpFile, { force: true });
    return;
  }
  const admin = await connectPostgres(template.adminUrl);
  try {
    const rows = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE $1",
      [`${template.prefix}%`],
    );
    for (const { datname } of rows) await admin.exec(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await admin.close();
  }
};

let counter = 0;

/**
 * A fresh, migrated database of its own for one test file. Close it in afterAll. `poolSize`
 * (PostgreSQL only; default 4) — concurrency tests and benchmarks ask for more.
 */
export const createTestDbFromTemplate = async (
  template: TestTemplate,
  options: {
    poolSize?: number;
    onQuery?: (sql: string) => void;
    connectVia?: (url: string) => string;
    /** The pooler's URL for the database's: the app connects through it, migrations directly. */
    viaPooler?: (url: string) => string;
    /** Prisma's interactive-transaction limit (PostgreSQL; default 15 s). */
    transactionTimeoutMs?: number;
  } = {},
): Promise<Db> => {
  const onQuery = options.onQuery ? { onQuery: options.onQuery } : {};
  if (template.kind === "pglite") {
    const pglite = new PGlite({
      extensions: PGLITE_EXTENSIONS,
      loadDataDir: new Blob([readFileSync(template.dumpFile)]),
    });
    await pglite.waitReady;
    const db = await createDb({ dataDir: "", pglite, ...onQuery });
    return {
      ...db,
      close: async () => {
        await db.close();
        await pglite.close();
      },
    };
  }
  const name = `${template.prefix}_${process.pid}_${++counter}`;
  const admin = await connectPostgres(template.adminUrl);
  try {
    await admin.exec(`CREATE DATABASE ${name} TEMPLATE ${template.template} OWNER ${TEST_OWNER_ROLE}`);
  } finally {
    await admin.close();
  }
  const url = ownerUrl(template.adminUrl, name);
  return createDb({
    // A test may route the connections through a proxy of its own (to cut them).
    databaseUrl: options.viaPooler
      ? options.viaPooler(url)
      : options.connectVia
        ? options.connectVia(url)
        : url,
    ...(options.viaPooler ? { pooler: { directUrl: url } } : {}),
    dataDir: "",
    poolSize: options.poolSize ?? 4,
    ...(options.transactionTimeoutMs ? { transactionTimeoutMs: options.transactionTimeoutMs } : {}),
    ...onQuery,
  });
};

/**
 * A PostgreSQL database of that name KEPT between runs, for benchmarks that seed a large book once
 * and measure it many times: created owned by the test owner if missing (`created`: the caller
 * seeds it), migrated to the newest migrations, opened as the app opens its own. Never dropped here.
 */
export const openKeptDatabase = async (options: {
  adminUrl: string;
  name: string;
  poolSize?: number;
  transactionTimeoutMs?: number;
}): Promise<{ db: Db; created: boolean }> => {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(options.name)) {
    throw new Error(`Not a plain database name: ${JSON.stringify(options.name)}`);
  }
  const created = await createOwnedDatabase(options.adminUrl, options.name);
  await migrateOwned(options.adminUrl, options.name);
  const db = await createDb({
    databaseUrl: ownerUrl(options.adminUrl, options.name),
    dataDir: "",
    poolSize: options.poolSize ?? 4,
    ...(options.transactionTimeoutMs ? { transactionTimeoutMs: options.transactionTimeoutMs } : {}),
  });
  return { db, created };
};

/** Opens a raw connection to a test database (tests of the migration runner itself). */
export const createScratchDatabase = async (
  template: TestTemplate,
): Promise<{ url?: string; pglite?: PGlite; drop(): Promise<void> }> => {
  if (template.kind === "pglite") {
    const pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
    await pglite.waitReady;
    return { pglite, drop: () => pglite.close() };
  }
  const name = `${template.prefix}_${process.pid}_scratch${++counter}`;
  const admin = await connectPostgres(template.adminUrl);
  try {
    await admin.exec(`CREATE DATABASE ${name} OWNER ${TEST_OWNER_ROLE}`);
  } finally {
    await admin.close();
  }
  return { url: ownerUrl(template.adminUrl, name), drop: async () => {} };
};
