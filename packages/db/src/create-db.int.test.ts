// createDb as an operator meets it: an unreachable PostgreSQL is a clear message (never a stack,
// never the password), and the embedded database keeps its data on disk across restarts.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "./create-db";
import { DatabaseSetupError } from "./errors";
import { readMigrations } from "./migrate";
import { createTestDb, insertTenant, testDatabaseKind } from "./testing";

const tempRoot = mkdtempSync(path.join(tmpdir(), "hisob-create-db-"));
afterAll(() => rmSync(tempRoot, { recursive: true, force: true }));

const setupError = async (promise: Promise<unknown>): Promise<DatabaseSetupError> => {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(DatabaseSetupError);
  return error as DatabaseSetupError;
};

describe("PostgreSQL that cannot be reached", () => {
  it("is refused with a message naming the server it tried", async () => {
    const dataDir = path.join(tempRoot, "unused-1");
    const error = await setupError(createDb({ databaseUrl: "postgres://nobody@127.0.0.1:1/x", dataDir }));
    expect(error.message).toMatch(/^Cannot connect to PostgreSQL at 127\.0\.0\.1:1\/x as nobody \(/);
    expect(error.message).toContain("ECONNREFUSED");
    expect(error.message).toContain("DATABASE_URL");
    // PostgreSQL mode never touches the embedded data folder.
    expect(existsSync(dataDir)).toBe(false);
  });

  it("never shows the password from the URL", async () => {
    const password = "s3cr%40t-Pa55";
    for (const databaseUrl of [
      `postgres://nobody:${password}@127.0.0.1:1/x`,
      `postgresql://nobody:${password}@127.0.0.1:1/x?sslmode=disable`,
      `postgres://nobody:${password}@[bad/x`,
    ]) {
      const error = await setupError(createDb({ databaseUrl, dataDir: path.join(tempRoot, "unused-2") }));
      expect(error.message).toMatch(/^Cannot connect to PostgreSQL at /);
      for (const secret of ["s3cr", "Pa55", password])
        expect(error.message, databaseUrl).not.toContain(secret);
    }
  });
});

describe("the embedded database in a folder", () => {
  it("migrates, writes, closes, reopens and reads its data back", { timeout: 60_000 }, async () => {
    const dataDir = path.join(tempRoot, "embedded");
    const first = await createDb({ dataDir, purpose: "the first start" });
    let second: Db | undefined;
    try {
      expect(first.kind).toBe("pglite");
      const names = readMigrations().map((m) => m.name);
      expect(await first.migrate()).toEqual({ applied: names, alreadyApplied: 0 });
      await first.ping();
      const tenant = await insertTenant(first, "Persisted LLC");
      await first.withTenant(tenant.id, (tx) =>
        tx.user.create({
          data: { tenantId: tenant.id, email: "kept@example.com", firstName: "Kept", lastName: "On Disk" },
        }),
      );

      // The folder is in use: another open of it is refused before anything is touched.
      const busy = await setupError(createDb({ dataDir, purpose: "a second start" }));
      expect(busy.message).toContain(`in use by the first start (pid ${process.pid})`);
      await first.close();
      expect(existsSync(path.join(dataDir, "pglite", "PG_VERSION"))).toBe(true);

      second = await createDb({ dataDir, purpose: "the second start" });
      expect(await second.migrate()).toEqual({ applied: [], alreadyApplied: names.length });
      await second.ping();
      const users = await second.withTenant(tenant.id, (tx) =>
        tx.user.findMany({ select: { email: true, firstName: true, tenant: { select: { name: true } } } }),
      );
      expect(users).toEqual([
        { email: "kept@example.com", firstName: "Kept", tenant: { name: "Persisted LLC" } },
      ]);
      expect(await second.system.findLoginByEmail("KEPT@example.com")).toMatchObject({ tenantId: tenant.id });
    } finally {
      await first.close().catch(() => {});
      await second?.close();
    }
  });
});

describe("ping", () => {
  it(`answers on the test database (${testDatabaseKind()})`, async () => {
    const db = await createTestDb();
    try {
      expect(db.kind).toBe(testDatabaseKind());
      await expect(db.ping()).resolves.toBeUndefined();
    } finally {
      await db.close();
    }
  });
});
