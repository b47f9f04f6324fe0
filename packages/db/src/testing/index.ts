import { inject } from "vitest";
import type { Db } from "../create-db";
import { connectPostgres } from "../sql-connection";
import { createScratchDatabase, createTestDbFromTemplate } from "./test-databases";

export { connectPostgres } from "../sql-connection";
export { insertTenant } from "./insert-tenant";
export { startPgBouncer } from "./pgbouncer";
export { freePort, waitForPort } from "./ports";
export { TEST_OWNER_ROLE, type TestTemplate } from "./test-databases";

/** A fresh, migrated database for this test file (PGlite, or PostgreSQL when DATABASE_URL is set). */
export const createTestDb = (options: Parameters<typeof createTestDbFromTemplate>[1] = {}): Promise<Db> =>
  createTestDbFromTemplate(inject("testTemplate"), options);

/** An empty database (no migrations applied) for tests of the migration runner. */
export const createEmptyTestDatabase = () => createScratchDatabase(inject("testTemplate"));

export const testDatabaseKind = (): "pglite" | "postgres" => inject("testTemplate").kind;

/** The administrator's URL of the PostgreSQL server the tests use (null on PGlite). */
export const testAdminUrl = (): string | null => {
  const template = inject("testTemplate");
  return template.kind === "postgres" ? template.adminUrl : null;
};

/**
 * PostgreSQL only: ends every server process connected to `database` (as an administrator's
 * `pg_terminate_backend` or a fast restart would); answers how many it ended.
 */
export const terminateConnections = async (database: string): Promise<number> => {
  const adminUrl = testAdminUrl();
  if (!adminUrl) throw new Error("terminateConnections needs PostgreSQL");
  const admin = await connectPostgres(adminUrl);
  try {
    const rows = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [database],
    );
    return rows.length;
  } finally {
    await admin.close();
  }
};
