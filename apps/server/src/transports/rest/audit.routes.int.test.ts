import { audit } from "@hisob/db";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

// The audit log: one entry per committed change, none for a rolled-back one,
// never a secret, append-only in the database for the application's own roles, tenant-isolated.

let t: TestApp;
let platform: { id: string };
let tenantA: { id: string };
let tenantB: { id: string };
let platformAdmin: SeededUser;
let adminA: SeededUser;
let adminB: SeededUser;
let readerA: SeededUser;

type Entry = {
  id: string;
  tenantId: string | null;
  userId: string | null;
  userEmail: string | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  entity: string;
  entityId: string | null;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  names: Record<string, string>;
};

const json = (user: SeededUser, method: "POST" | "PUT" | "DELETE", url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { ...user.headers, "user-agent": "audit-test/1.0" },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const entries = async (user: SeededUser, query: string) => {
  const res = await t.app.inject({ method: "GET", url: `/audit?${query}`, headers: user.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: Entry[]; total: number };
};

beforeAll(async () => {
  t = await createTestApp();
  platform = await t.createTenant("Platform", { platform: true });
  tenantA = await t.createTenant("Audit A");
  tenantB = await t.createTenant("Audit B");
  platformAdmin = await t.createUser(platform.id, "admin");
  adminA = await t.createUser(tenantA.id, "admin");
  adminB = await t.createUser(tenantB.id, "admin");
  readerA = await t.createUser(tenantA.id, ["users:read:all"]);
});

afterAll(async () => {
  await t?.close();
});

describe("writing", () => {
  it("one entry per committed change: who, when, what, and only the changed fields", async () => {
    const created = await json(adminA, "POST", "/roles", {
      name: "Cashier",
      permissions: ["users:read:all"],
    });
    expect(created.statusCode).toBe(201);
    const roleId = created.json().id as string;
    const renamed = await json(adminA, "PUT", `/roles/${roleId}`, { name: "Head cashier" });
    expect(renamed.statusCode).toBe(200);

    const { items, total } = await entries(adminA, `entity=role&entityId=${roleId}`);
    expect(total).toBe(2);
    const [update, create] = items;
    expect(create).toMatchObject({
      tenantId: tenantA.id,
      userId: adminA.id,
      userEmail: adminA.email,
      userAgent: "audit-test/1.0",
      ip: "127.0.0.1",
      entity: "role",
      entityId: roleId,
      action: "create",
      before: null,
    });
    expect(create?.requestId).toEqual(expect.any(String));
    expect(create?.after).toMatchObject({ name: "Cashier", permissions: ["users:read:all"] });
    expect(update).toMatchObject({
      action: "update",
      before: { name: "Cashier" },
      after: { name: "Head cashier" },
    });
    // Unchanged fields stay out of the diff.
    expect(Object.keys(update?.after ?? {})).toEqual(["name"]);
  });

  it("names the actor and the target as they are now, even alone on a page (resolved server-side)", async () => {
    const created = await json(adminA, "POST", "/roles", { name: "Auditor", permissions: [] });
    const roleId = created.json().id as string;
    await json(adminA, "PUT", `/roles/${roleId}`, { name: "Senior auditor" });
    // Only the creation on this page: its target's current name still comes with it.
    const { items } = await entries(adminA, `entity=role&entityId=${roleId}&order=asc&limit=1`);
    expect(items).toHaveLength(1);
    expect(items[0]?.names).toEqual({ [adminA.id]: adminA.email, [roleId]: "Senior auditor" });
    // A platform administrator's own events name organizations; ids nobody knows stay unnamed.
    const tenant = await json(platformAdmin, "POST", "/tenants", { name: "Named Org", currencies: ["UZS"] });
    expect(tenant.statusCode, tenant.body).toBe(201);
    const tenantId = tenant.json().id as string;
    const platformItems = (await entries(platformAdmin, `entity=tenant&entityId=${tenantId}`)).items;
    expect(platformItems[0]?.names[tenantId]).toBe("Named Org");
  });

  it("a refused change leaves no entry", async () => {
    const before = (await entries(adminA, "entity=role")).total;
    // The built-in admin role cannot be renamed: the transaction rolls back.
    const roles = await t.app.inject({ method: "GET", url: "/roles?limit=100", headers: adminA.headers });
    const adminRole = (roles.json().items as Array<{ id: string; name: string }>).find(
      (r) => r.name === "admin",
    );
    const refused = await json(adminA, "PUT", `/roles/${adminRole?.id}`, { name: "root" });
    expect(refused.statusCode).toBe(422);
    expect((await entries(adminA, "entity=role")).total).toBe(before);
  });

  it("an entry written in a transaction that rolls back is gone with it", async () => {
    const marker = `rollback-${Date.now()}`;
    await expect(
      t.db.withTenant(tenantA.id, async (tx) => {
        await audit(tx, { tenantId: tenantA.id, actor: { userId: adminA.id } }, "test", marker, "create");
        throw new Error("the change fails after its audit entry");
      }),
    ).rejects.toThrow("the change fails");
    expect((await entries(adminA, `entity=test&entityId=${marker}`)).total).toBe(0);
  });

  it("never records a password or its hash: an admin's reset shows as passwordChanged", async () => {
    const user = await json(adminA, "POST", "/users", {
      email: `reset.${Date.now()}@audit.uz`,
      firstName: "Reset",
      lastName: "Me",
      password: "First-Passw0rd!",
    });
    expect(user.statusCode).toBe(201);
    const id = user.json().id as string;
    const reset = await json(adminA, "PUT", `/users/${id}`, { password: "Second-Passw0rd!" });
    expect(reset.statusCode).toBe(200);
    const { items } = await entries(adminA, `entity=user&entityId=${id}`);
    expect(items.map((entry) => entry.action)).toEqual(["update", "create"]);
    expect(items[0]?.after).toEqual({ passwordChanged: true });
    const text = JSON.stringify(items);
    expect(text).not.toMatch(/Passw0rd|argon2|passwordHash/);
  });

  it("records sign-ins and failed sign-ins (with the IP and user agent), and admins ending sessions", async () => {
    const user = await t.createUser(tenantA.id, ["users:read:own"]);
    const failed = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      headers: { "user-agent": "guesser/0.1" },
      payload: { email: user.email, password: "wrong-password" },
    });
    expect(failed.statusCode).toBe(401);
    const signIns = await entries(adminA, `userId=${user.id}&entity=session`);
    expect(signIns.items.map((entry) => entry.action)).toEqual(["sign_in_failed", "sign_in"]);
    expect(signIns.items[0]).toMatchObject({
      userAgent: "guesser/0.1",
      after: { email: user.email, reason: "wrong_password" },
    });
    expect(JSON.stringify(signIns.items)).not.toContain("wrong-password");

    const sessions = await t.app.inject({
      method: "GET",
      url: `/users/${user.id}/sessions`,
      headers: adminA.headers,
    });
    expect(sessions.statusCode).toBe(200);
    const sessionId = (sessions.json() as Array<{ id: string }>)[0]?.id;
    const ended = await json(adminA, "DELETE", `/sessions/${sessionId}`);
    expect(ended.statusCode).toBe(200);
    expect((await entries(adminA, `entity=session&entityId=${sessionId}&action=end`)).total).toBe(1);
    expect((await t.app.inject({ method: "GET", url: "/users/me", headers: user.headers })).statusCode).toBe(
      401,
    );
  });

  it("a sign-in with an unknown email is a platform event: only the platform tenant reads it", async () => {
    const email = `nobody.${Date.now()}@audit.uz`;
    await t.app.inject({ method: "POST", url: "/auth/login", payload: { email, password: "whatever-1234" } });
    const platformView = await entries(platformAdmin, "platform=true&action=sign_in_failed");
    expect(platformView.items.some((entry) => entry.after?.email === email && entry.tenantId === null)).toBe(
      true,
    );
    const tenantView = await entries(adminA, "action=sign_in_failed&limit=100");
    expect(tenantView.items.some((entry) => entry.after?.email === email)).toBe(false);
    const refused = await t.app.inject({
      method: "GET",
      url: "/audit?platform=true",
      headers: adminA.headers,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.reason).toBe("audit.platform_only");
  });

  it("records finance changes and deletions (an account)", async () => {
    const created = await json(adminA, "POST", "/finance/accounts", { name: "Till", currency: "UZS" });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    expect((await json(adminA, "PUT", `/finance/accounts/${id}`, { name: "Main till" })).statusCode).toBe(
      200,
    );
    expect((await json(adminA, "DELETE", `/finance/accounts/${id}`)).statusCode).toBe(204);
    const { items } = await entries(adminA, `entity=money_account&entityId=${id}`);
    expect(
      items.map((entry) => [entry.action, entry.before?.name ?? null, entry.after?.name ?? null]),
    ).toEqual([
      ["delete", "Main till", null],
      ["update", "Till", "Main till"],
      ["create", null, "Till"],
    ]);
  });
});

describe("append-only", () => {
  it("the application's own roles cannot UPDATE, DELETE or TRUNCATE entries", async () => {
    const attempts = [
      (tx: Parameters<Parameters<typeof t.db.withTenant>[1]>[0]) =>
        tx.$executeRaw`UPDATE audit_log SET action = 'forged'`,
      (tx: Parameters<Parameters<typeof t.db.withTenant>[1]>[0]) => tx.$executeRaw`DELETE FROM audit_log`,
      (tx: Parameters<Parameters<typeof t.db.withTenant>[1]>[0]) => tx.$executeRaw`TRUNCATE audit_log`,
    ];
    for (const attempt of attempts) {
      await expect(t.db.withTenant(tenantA.id, attempt)).rejects.toThrow(/permission denied|append-only/);
      await expect(t.db.withPlatform(attempt)).rejects.toThrow(/permission denied|append-only/);
    }
    expect((await entries(adminA, "action=forged")).total).toBe(0);
  });

  it("even the tables' owner changes nothing: forced RLS hides the rows, the trigger refuses the rest", async () => {
    const count = async () =>
      (await entries(platformAdmin, "limit=1")).total + (await entries(adminA, "limit=1")).total;
    const before = await count();
    for (const statement of [
      "UPDATE audit_log SET action = 'forged'",
      "DELETE FROM audit_log",
      "TRUNCATE audit_log",
    ]) {
      const outcome = await t.db
        .withTenant(tenantA.id, async (tx) => {
          await tx.$executeRawUnsafe("RESET ROLE");
          return tx.$executeRawUnsafe(statement);
        })
        .then(
          (rows) => rows,
          (error: unknown) => String(error),
        );
      // A superuser (PGlite) bypasses RLS and meets the trigger; a plain owner (PostgreSQL) sees no
      // row to change under FORCEd RLS, and TRUNCATE (which ignores RLS) meets the statement trigger.
      if (typeof outcome === "string") expect(outcome).toMatch(/append-only/);
      else expect(outcome).toBe(0);
    }
    expect(await count()).toBe(before);
  });

  it("no route changes or deletes an entry", async () => {
    const { items } = await entries(adminA, "limit=1");
    const id = items[0]?.id;
    for (const method of ["PUT", "PATCH", "DELETE"] as const) {
      const res = await t.app.inject({ method, url: `/audit/${id}`, headers: adminA.headers, payload: {} });
      expect(res.statusCode).toBe(404);
    }
  });
});

describe("reading", () => {
  it("tenant isolation: a tenant sees only its own entries, even by id", async () => {
    const role = await json(adminB, "POST", "/roles", { name: "B only" });
    const roleId = role.json().id as string;
    expect((await entries(adminB, `entityId=${roleId}`)).total).toBe(1);
    expect((await entries(adminA, `entityId=${roleId}`)).total).toBe(0);
    const all = await entries(adminA, "limit=100");
    expect(all.items.every((entry) => entry.tenantId === tenantA.id)).toBe(true);
    // Row-level security alone, with no tenant filter in the query.
    const tenants = await t.db.withTenant(
      tenantA.id,
      (tx) =>
        tx.$queryRaw<Array<{ tenant_id: string | null }>>`SELECT DISTINCT tenant_id::text FROM audit_log`,
    );
    expect(tenants).toEqual([{ tenant_id: tenantA.id }]);
  });

  it("filters by time, paginates, validates its query", async () => {
    const now = new Date();
    const later = new Date(now.getTime() + 60_000).toISOString();
    expect((await entries(adminA, `from=${encodeURIComponent(later)}`)).total).toBe(0);
    const page = await entries(adminA, "limit=2&offset=1");
    expect(page.items.length).toBe(2);
    for (const query of [
      "limit=0",
      "from=yesterday",
      "entity=DROP%20TABLE",
      "userId=1",
      `from=${later}&to=${later}`,
    ]) {
      const res = await t.app.inject({ method: "GET", url: `/audit?${query}`, headers: adminA.headers });
      expect(res.statusCode, query).toBe(400);
    }
  });

  it("401 without credentials, 403 without audit:read:all", async () => {
    expect((await t.app.inject({ method: "GET", url: "/audit" })).statusCode).toBe(401);
    const res = await t.app.inject({ method: "GET", url: "/audit", headers: readerA.headers });
    expect(res.statusCode).toBe(403);
    const exported = await t.app.inject({ method: "GET", url: "/audit/export", headers: readerA.headers });
    expect(exported.statusCode).toBe(403);
  });

  it("exports the filtered entries to .xlsx in the reader's language (their uiLanguage)", async () => {
    expect((await json(adminA, "PUT", "/account", { uiLanguage: "ru" })).statusCode).toBe(200);
    const res = await t.app.inject({
      method: "GET",
      url: "/audit/export?entity=role",
      headers: adminA.headers,
    });
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.name).toBe("Журнал аудита");
    expect(sheet?.getRow(1).getCell(1).value).toBe("Когда");
    const { total } = await entries(adminA, "entity=role");
    expect((sheet?.rowCount ?? 0) - 1).toBe(total);
  });
});
