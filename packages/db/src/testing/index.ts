import { inject } from "vitest";
import type { Db } from "../create-db";
import { createScratchDatabase, createTestDbFromTemplate } from "./test-databases";

export { insertTenant } from "./insert-tenant";
export { TEST_OWNER_ROLE, type TestTemplate } from "./test-databases";

/** A fresh, migrated database for this test file (PGlite, or PostgreSQL when DATABASE_URL is set). */
export const createTestDb = (
  options: { poolSize?: number; onQuery?: (sql: string) => void } = {},
): Promise<Db> => createTestDbFromTemplate(inject("testTemplate"), options);

/** An empty database (no migrations applied) for tests of the migration runner. */
export const createEmptyTestDatabase = () => createScratchDatabase(inject("testTemplate"));

export const testDatabaseKind = (): "pglite" | "postgres" => inject("testTemplate").kind;
