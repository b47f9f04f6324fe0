import { inject } from "vitest";
import type { Db } from "../create-db";
import { createScratchDatabase, createTestDbFromTemplate } from "./test-databases";

export { insertTenant } from "./insert-tenant";
export { TEST_OWNER_ROLE, type TestTemplate } from "./test-databases";

/** A fresh, migrated database for this test file (PGlite, or PostgreSQL when DATABASE_URL is set). */
export const createTestDb = (
  options: { poolSize?: number; onQuery?: (sql: string) => void; connectVia?: (url: string) => string } = {},
): Promise<Db> => createTestDbFromTemplate(inject("testTemplate"), options);

/** An empty database (no migrations applied) for tests of the migration runner. */
export const createEmptyTestDatabase = () => createScratchDatabase(inject("testTemplate"));

export const testDatabaseKind = (): "pglite" | "postgres" => inject("testTemplate").kind;

/** The administrator's URL of the PostgreSQL server the tests use (null on PGlite). */
export const testAdminUrl = (): string | null => {
  const template = inject("testTemplate");
  return template.kind === "postgres" ? template.adminUrl : null;
};
