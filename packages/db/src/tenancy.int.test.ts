import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tx } from "./client";
import type { Db } from "./create-db";
import { createTestDb, insertTenant, TEST_OWNER_ROLE, testDatabaseKind } from "./testing";
import { afterCommit } from "./tx-hooks";

// The two walls between tenants. These tests deliberately write queries WITHOUT a tenant filter:
// row-level security alone must keep each tenant's rows to itself.

let db: Db;
let tenantA: string;
let tenantB: string;

const addUser = (tenantId: string, email: string) =>
  db.withTenant(tenantId, (tx) =>
    tx.user.create({ data: { tenantId, email, firstName: "F", lastName: "L" }, select: { id: true } }),
  );

beforeAll(async () => {
  db = await createTestDb();
  tenantA = (await insertTenant(db, "A")).id;
  tenantB = (await insertTenant(db, "B")).id;
  await addUser(tenantA, "a1@example.com");
  await addUser(tenantA, "a2@example.com");
  await addUser(tenantB, "b1@example.com");
});

afterAll(async () => {
  await db?.close();
});

describe("row-level security", () => {
  it("runs tenant work as the non-owner tenant role", async () => {
    const [row] = await db.withTenant(
      tenantA,
      (tx) =>
        tx.$queryRaw<
          Array<{ role: string; tenant: string }>
        >`SELECT current_user AS role, current_setting('app.tenant_id') AS tenant`,
    );
    expect(row).toEqual({ role: "hisob_tenant", tenant: tenantA });
  });

  it("a query that forgets its tenant filter still sees only its own tenant", async () => {
    const emailsA = await db.withTenant(tenantA, (tx) =>
      tx.user.findMany({ select: { email: true }, orderBy: { email: "asc" } }),
    );
    expect(emailsA.map((u) => u.email)).toEqual(["a1@example.com", "a2@example.com"]);
    const countB = await db.withTenant(
      tenantB,
      (tx) => tx.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM users`,
    );
    expect(Number(countB[0]?.n)).toBe(1);
    const tenants = await db.withTenant(tenantB, (tx) => tx.tenant.findMany({ select: { id: true } }));
    expect(tenants).toEqual([{ id: tenantB }]);
  });

  it("cannot read another tenant's row even by its id", async () => {
    const other = await db.withTenant(tenantB, (tx) =>
      tx.user.findUnique({ where: { email: "a1@example.com" } }),
    );
    expect(other).toBeNull();
  });

  it("cannot write a row into another tenant", async () => {
    await expect(
      db.withTenant(tenantA, (tx) =>
        tx.user.create({
          data: { tenantId: tenantB, email: "x@example.com", firstName: "X", lastName: "Y" },
        }),
      ),
    ).rejects.toThrow(/row-level security/i);
  });

  it("cannot update or delete another tenant's rows", async () => {
    const updated = await db.withTenant(tenantA, (tx) =>
      tx.user.updateMany({ data: { firstName: "Hacked" } }),
    );
    expect(updated.count).toBe(2);
    const deleted = await db.withTenant(
      tenantA,
      (tx) => tx.$executeRaw`DELETE FROM users WHERE email = 'b1@example.com'`,
    );
    expect(deleted).toBe(0);
    const b = await db.withTenant(tenantB, (tx) => tx.user.findMany({ select: { firstName: true } }));
    expect(b).toEqual([{ firstName: "F" }]);
  });

  it("the setting cannot leak to the next transaction", async () => {
    await db.withTenant(tenantA, async () => {});
    const rows = await db.withPlatform(
      (tx) =>
        tx.$queryRaw<
          Array<{ tenant: string | null; role: string }>
        >`SELECT current_setting('app.tenant_id', true) AS tenant, current_user AS role`,
    );
    expect(rows[0]?.tenant ?? "").toBe("");
    expect(rows[0]?.role).toBe("hisob_platform");
  });

  it("the platform role has no access to tenant-owned tables at all", async () => {
    await expect(db.withPlatform((tx) => tx.user.findMany())).rejects.toThrow(/permission denied/);
  });

  it("the platform role writes and reads only the outbox events that belong to no tenant", async () => {
    const tenantEvent = await db.withTenant(tenantA, (tx) =>
      tx.outboxEvent.create({
        data: { tenantId: tenantA, type: "Probe", payload: {} },
        select: { id: true },
      }),
    );
    const platformEvent = await db.withPlatform((tx) =>
      tx.outboxEvent.create({ data: { tenantId: null, type: "Probe", payload: {} }, select: { id: true } }),
    );
    const seen = await db.withPlatform((tx) =>
      tx.outboxEvent.findMany({
        where: { id: { in: [tenantEvent.id, platformEvent.id] } },
        select: { id: true },
      }),
    );
    expect(seen).toEqual([{ id: platformEvent.id }]);
    await expect(
      db.withPlatform((tx) =>
        tx.outboxEvent.create({ data: { tenantId: tenantA, type: "Probe", payload: {} } }),
      ),
    ).rejects.toThrow(/row-level security/);
    await expect(db.withPlatform((tx) => tx.outboxEvent.deleteMany({}))).rejects.toThrow(/permission denied/);
  });

  it("refuses a tenant id that is not a UUID", async () => {
    expect(() => db.withTenant("1 OR 1=1", async () => {})).toThrow(/tenant UUID/);
  });

  it("every table with a tenant column has forced row-level security", async () => {
    const rows = await db.withPlatform(
      (tx) =>
        tx.$queryRaw<Array<{ table: string; rls: boolean; forced: boolean }>>`
        SELECT c.relname AS "table", c.relrowsecurity AS rls, c.relforcerowsecurity AS forced
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r'
          AND (c.relname = 'tenants' OR EXISTS (
            SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped))
        ORDER BY 1`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(11);
    for (const row of rows) expect(row, row.table).toMatchObject({ rls: true, forced: true });
  });

  it("every tenant policy reads the tenant setting once per statement, not once per row", async () => {
    const policies = await db.withPlatform(
      (tx) =>
        tx.$queryRaw<Array<{ table: string; policy: string; expression: string }>>`
        SELECT tablename AS "table", policyname AS policy, concat_ws(' ', qual, with_check) AS expression
        FROM pg_policies
        WHERE schemaname = 'public' AND concat_ws(' ', qual, with_check) LIKE '%app.tenant_id%'`,
    );
    expect(policies.length).toBeGreaterThanOrEqual(20);
    for (const { table, policy, expression } of policies) {
      // Every read of the setting is a scalar subquery (an InitPlan), never a bare call.
      const calls = expression.match(/current_setting\('app\.tenant_id'/g) ?? [];
      const once = expression.match(/\(\s*SELECT \(NULLIF\(current_setting\('app\.tenant_id'/g) ?? [];
      expect(once.length, `${table}.${policy}: ${expression}`).toBe(calls.length);
    }
    // And the plan shows it: the setting is read in an InitPlan, the scan compares a parameter.
    const plan = await db.withTenant(tenantA, (tx) =>
      tx.$queryRawUnsafe<Array<{ "QUERY PLAN": string }>>(
        "EXPLAIN (COSTS OFF) SELECT email FROM users WHERE first_name <> 'x'",
      ),
    );
    const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
    expect(text).toMatch(/InitPlan/);
    expect(text).not.toMatch(/Filter: .*current_setting/);
  });

  it("every application table is reachable by the tenant role (classified as tenant or platform)", async () => {
    const rows = await db.withPlatform(
      (tx) =>
        tx.$queryRaw<Array<{ table: string; readable: boolean }>>`
        SELECT c.relname AS "table", has_table_privilege('hisob_tenant', c.oid, 'SELECT') AS readable
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> '_prisma_migrations'`,
    );
    // Platform-private tables: only the platform role may touch them.
    const platformPrivate = new Set(["oidc_signing_keys"]);
    for (const row of rows)
      expect(row, row.table).toMatchObject({ readable: !platformPrivate.has(row.table) });
  });

  it.runIf(testDatabaseKind() === "postgres")(
    "on PostgreSQL the application connects as a non-superuser owner",
    async () => {
      const rows = await db.withPlatform(
        (tx) =>
          tx.$queryRaw<Array<{ owner: string; superuser: boolean }>>`
        SELECT session_user AS owner, (SELECT rolsuper FROM pg_roles WHERE rolname = session_user) AS superuser`,
      );
      expect(rows[0]).toEqual({ owner: TEST_OWNER_ROLE, superuser: false });
      const owners = await db.withPlatform(
        (tx) =>
          tx.$queryRaw<
            Array<{ owner: string }>
          >`SELECT DISTINCT tableowner AS owner FROM pg_tables WHERE schemaname = 'public'`,
      );
      expect(owners).toEqual([{ owner: TEST_OWNER_ROLE }]);
    },
  );
});

describe("system lookups", () => {
  it("finds a login candidate by email across tenants, case-insensitively", async () => {
    const found = await db.system.findLoginByEmail("  B1@Example.com ");
    expect(found).toMatchObject({ tenantId: tenantB, isActive: true, tenantIsActive: true });
    expect(await db.system.findLoginByEmail("nobody@example.com")).toBeNull();
  });

  it("finds a session by its token hash with the activity of its user and tenant", async () => {
    const user = await db.withTenant(tenantA, (tx) => tx.user.findFirstOrThrow({ select: { id: true } }));
    await db.withTenant(tenantA, (tx) =>
      tx.session.create({
        data: {
          tenantId: tenantA,
          userId: user.id,
          tokenHash: "h1",
          expiresAt: new Date(Date.now() + 60_000),
        },
      }),
    );
    expect(await db.system.findSessionByTokenHash("h1")).toMatchObject({
      tenantId: tenantA,
      userId: user.id,
      userIsActive: true,
    });
    expect(await db.system.findSessionByTokenHash("nope")).toBeNull();
  });

  it("resolves a caller in one statement: session, user, tenant and effective permissions", async () => {
    const user = await db.withTenant(tenantB, (tx) => tx.user.findFirstOrThrow({ select: { id: true } }));
    const permission = await db.withPlatform((tx) =>
      tx.permission.upsert({
        where: { name: "probe:read:all" },
        create: { name: "probe:read:all", resource: "probe", action: "read", modifier: "all" },
        update: {},
      }),
    );
    await db.withTenant(tenantB, async (tx) => {
      const role = await tx.role.create({ data: { tenantId: tenantB, name: "Probe" } });
      await tx.rolePermission.create({
        data: { tenantId: tenantB, roleId: role.id, permissionId: permission.id },
      });
      await tx.userRole.create({ data: { tenantId: tenantB, userId: user.id, roleId: role.id } });
      await tx.session.create({
        data: {
          tenantId: tenantB,
          userId: user.id,
          tokenHash: "h2",
          expiresAt: new Date(Date.now() + 60_000),
        },
      });
    });
    expect(await db.system.resolveCaller("h2", ["session"])).toMatchObject({
      kind: "session",
      tenantId: tenantB,
      userId: user.id,
      usable: true,
      isPlatform: false,
      uiLanguage: "en",
      permissions: ["probe:read:all"],
    });
    expect(await db.system.resolveCaller("h2", ["oidc"])).toBeNull();
    expect(await db.system.resolveCaller("nope", ["session", "oidc"])).toBeNull();
  });

  it("the caller function is the owner's alone: tenant and platform transactions cannot call it", async () => {
    const attempt = (run: (fn: (tx: Tx) => Promise<unknown>) => Promise<unknown>) =>
      run((tx) => tx.$queryRaw`SELECT * FROM hisob_resolve_caller('h1', 'session')`).then(
        () => "called",
        (error: unknown) => String(error),
      );
    expect(await attempt((fn) => db.withTenant(tenantA, fn))).toMatch(/permission denied/);
    expect(await attempt((fn) => db.withPlatform(fn))).toMatch(/permission denied/);
  });
});

describe("after-commit hooks", () => {
  it("run after commit and never after a rollback", async () => {
    const calls: string[] = [];
    await db.withTenant(tenantA, async (tx) => {
      afterCommit(tx, () => calls.push("committed"));
      expect(calls).toEqual([]);
    });
    await expect(
      db.withTenant(tenantA, async (tx) => {
        afterCommit(tx, () => calls.push("rolled back"));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(calls).toEqual(["committed"]);
  });
});

describe("the users' substring search under row-level security", () => {
  // PostgreSQL uses an index under RLS only for a LEAKPROOF function; the migration users_search_trgm
  // marks ILIKE's when it runs as a superuser (the embedded database). On PostgreSQL a DBA does it.
  it.runIf(testDatabaseKind() === "pglite")(
    "has trigram indexes ILIKE may use as the tenant role, and still sees only its own tenant",
    async () => {
      // As the tenant role: what the planner consults before it may use users_*_trgm_idx under RLS.
      const [ilike] = await db.withTenant(tenantA, (tx) =>
        tx.$queryRawUnsafe<Array<{ leakproof: boolean }>>(
          "SELECT proleakproof AS leakproof FROM pg_proc WHERE oid = 'pg_catalog.texticlike(text, text)'::regprocedure",
        ),
      );
      expect(ilike).toEqual({ leakproof: true });
      const indexes = await db.withTenant(tenantA, (tx) =>
        tx.$queryRawUnsafe<Array<{ name: string }>>(
          "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'users' AND indexdef LIKE '%gin_trgm_ops%' ORDER BY 1",
        ),
      );
      expect(indexes.map((index) => index.name)).toEqual([
        "users_email_trgm_idx",
        "users_first_name_trgm_idx",
        "users_last_name_trgm_idx",
      ]);
      const found = await db.withTenant(tenantB, (tx) =>
        tx.user.findMany({
          where: { email: { contains: "@EXAMPLE", mode: "insensitive" } },
          select: { email: true },
        }),
      );
      expect(found).toEqual([{ email: "b1@example.com" }]);
    },
  );
});
