// Keeps prisma/schema.prisma and prisma/migrations in step: the engine replays the migrations on an
// in-memory PGlite shadow and diffs the result against the schema.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diffMigrationsToSchema } from "./schema-diff";

const root = path.resolve(import.meta.dirname, "../../..");
const migrationsDir = path.join(root, "prisma", "migrations");
const schemaPath = path.join(root, "prisma", "schema.prisma");

// The first diff in a process starts PGlite from scratch (initdb, ~3-5 s); later ones reuse a copy.
const TIMEOUT = 60_000;

const tempDirs: string[] = [];
afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A scratch copy of prisma/migrations plus schema.prisma, to change without touching the repo. */
async function scratchCopy(): Promise<{ migrations: string; schema: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), "hisob-schema-diff-"));
  tempDirs.push(dir);
  const migrations = path.join(dir, "migrations");
  await cp(migrationsDir, migrations, { recursive: true });
  const schema = path.join(dir, "schema.prisma");
  await cp(schemaPath, schema);
  return { migrations, schema };
}

describe("schema.prisma and prisma/migrations", () => {
  it(
    "agree (otherwise run `npm run db:migration:new <name>` and review the SQL)",
    async () => {
      const sql = await diffMigrationsToSchema({ migrationsDir, schemaPath });
      expect(sql, "migrations are behind schema.prisma; the missing SQL is shown").toBe("");
    },
    TIMEOUT,
  );

  it(
    "drift is detected: a model missing from the migrations shows up as its CREATE TABLE",
    async () => {
      const copy = await scratchCopy();
      const schema = await readFile(copy.schema, "utf8");
      await writeFile(
        copy.schema,
        `${schema}\nmodel DriftProbe {\n  id String @id @db.Uuid\n\n  @@map("drift_probe")\n}\n`,
      );
      const sql = await diffMigrationsToSchema({ migrationsDir: copy.migrations, schemaPath: copy.schema });
      expect(sql).toContain('CREATE TABLE "drift_probe"');
      // Only the new table: the existing migrations replayed to exactly the rest of the schema.
      expect(sql).not.toMatch(/DROP|ALTER TABLE/);
    },
    TIMEOUT,
  );

  it(
    "hand-written SQL Prisma does not model (roles, grants, RLS policies, functions) replays and is not drift",
    async () => {
      const copy = await scratchCopy();
      const dir = path.join(copy.migrations, "99991231235959_rls_probe");
      await mkdir(dir);
      await writeFile(path.join(dir, "migration.sql"), RLS_PROBE_SQL);
      const sql = await diffMigrationsToSchema({ migrationsDir: copy.migrations, schemaPath: copy.schema });
      expect(sql).toBe("");
    },
    TIMEOUT,
  );
});

// Idempotent where the real RLS migration may already have run (roles, policy names).
const RLS_PROBE_SQL = `
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'hisob_probe') THEN CREATE ROLE hisob_probe NOLOGIN; END IF;
END $$;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO hisob_probe;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO hisob_probe;
ALTER TABLE "users" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "users" FORCE ROW LEVEL SECURITY;
CREATE POLICY probe_isolation ON "users" TO hisob_probe
  USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE FUNCTION hisob_probe_noop() RETURNS void LANGUAGE plpgsql AS $$ BEGIN PERFORM 1; END $$;
`;
