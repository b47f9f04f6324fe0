import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, TEST_PASSWORD, type TestApp } from "../../testing/test-app";

/*
 * A platform administrator manages another organization's users, roles and sessions by naming it in
 * the `x-tenant-id` header (docs/decisions/0084-platform-admin-acts-in-an-organization.md): inside that
 * organization's transaction, audited as themselves in its log; nobody else may name another one.
 */

let t: TestApp;
let platformTenantId: string;
let orgA: string;
let orgB: string;
let platformAdmin: SeededUser;
let platformReader: SeededUser;
let platformStaff: SeededUser;
let adminA: SeededUser;
let adminB: SeededUser;

const as = (caller: SeededUser, tenantId?: string) => ({
  ...caller.headers,
  ...(tenantId ? { "x-tenant-id": tenantId } : {}),
});

/** A signed-in user who set their own language (errors answer in it). */
const speaking = async (user: SeededUser, uiLanguage: "ru" | "uz") => {
  const res = await t.app.inject({
    method: "PUT",
    url: "/account",
    headers: user.headers,
    payload: { uiLanguage },
  });
  expect(res.statusCode).toBe(200);
  return user;
};

beforeAll(async () => {
  t = await createTestApp();
  platformTenantId = (await t.createTenant("Platform", { platform: true })).id;
  platformAdmin = await t.createUser(platformTenantId, "admin");
  // A platform user who may read organizations but not change them, and one with no tenants permission.
  platformReader = await t.createUser(platformTenantId, [
    "tenants:read:all",
    "users:read:all",
    "users:update:all",
  ]);
  platformStaff = await t.createUser(platformTenantId, ["users:read:all"]);
  orgA = (await t.createTenant("Alpha")).id;
  orgB = (await t.createTenant("Bravo")).id;
  adminA = await t.createUser(orgA, "admin");
  adminB = await t.createUser(orgB, "admin");
});

afterAll(async () => {
  await t?.close();
});

const emailsOf = (body: { items: Array<{ email: string }> }) => body.items.map((user) => user.email);

describe("a platform administrator acting in another organization", () => {
  it("lists that organization's users, and only them; without the header, their own", async () => {
    const inB = await t.app.inject({ method: "GET", url: "/users", headers: as(platformAdmin, orgB) });
    expect(inB.statusCode).toBe(200);
    expect(emailsOf(inB.json())).toEqual([adminB.email]);

    const own = await t.app.inject({ method: "GET", url: "/users", headers: as(platformAdmin) });
    expect(own.statusCode).toBe(200);
    expect(emailsOf(own.json())).toContain(platformAdmin.email);
    expect(emailsOf(own.json())).not.toContain(adminB.email);
  });

  it("creates a user there, audited as the platform administrator in that organization's log", async () => {
    const email = `created.by.platform.${Date.now()}@bravo.uz`;
    const res = await t.app.inject({
      method: "POST",
      url: "/users",
      headers: as(platformAdmin, orgB),
      payload: { email, firstName: "Bobur", lastName: "Toshev", uiLanguage: "uz", password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json() as { id: string };
    const rows = await t.db.withTenant(orgB, (tx) =>
      tx.user.findMany({ where: { id: created.id }, select: { tenantId: true, email: true } }),
    );
    expect(rows).toEqual([{ tenantId: orgB, email }]);
    const inPlatform = await t.db.withTenant(platformTenantId, (tx) => tx.user.count({ where: { email } }));
    expect(inPlatform).toBe(0);

    const entries = await t.db.withTenant(orgB, (tx) =>
      tx.auditEntry.findMany({
        where: { entity: "user", entityId: created.id, action: "create" },
        select: { tenantId: true, userId: true },
      }),
    );
    expect(entries).toEqual([{ tenantId: orgB, userId: platformAdmin.id }]);

    // B's own administrator reads it in B's log, with the platform administrator's email as the actor.
    const log = await t.app.inject({
      method: "GET",
      url: `/audit?entity=user&entityId=${created.id}`,
      headers: as(adminB),
    });
    expect(log.statusCode).toBe(200);
    const [entry] = log.json().items as Array<{ userId: string; userEmail: string | null; tenantId: string }>;
    expect(entry).toMatchObject({ userId: platformAdmin.id, userEmail: platformAdmin.email, tenantId: orgB });

    // The platform administrator reads B's log too, through the header; their own log has no such entry.
    const asPlatform = await t.app.inject({
      method: "GET",
      url: `/audit?entity=user&entityId=${created.id}`,
      headers: as(platformAdmin, orgB),
    });
    expect(asPlatform.json().items).toHaveLength(1);
    const ownLog = await t.app.inject({
      method: "GET",
      url: `/audit?entity=user&entityId=${created.id}`,
      headers: as(platformAdmin),
    });
    expect(ownLog.json().items).toEqual([]);
  });

  it("deactivates a user there: their session stops working at once", async () => {
    const member = await t.createUser(orgB, ["users:read:own"]);
    expect((await t.app.inject({ method: "GET", url: "/account", headers: member.headers })).statusCode).toBe(
      200,
    );
    const res = await t.app.inject({
      method: "PUT",
      url: `/users/${member.id}`,
      headers: as(platformAdmin, orgB),
      payload: { active: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: member.id, active: false });
    expect((await t.app.inject({ method: "GET", url: "/account", headers: member.headers })).statusCode).toBe(
      401,
    );
    const audited = await t.db.withTenant(orgB, (tx) =>
      tx.auditEntry.count({ where: { entity: "user", entityId: member.id, userId: platformAdmin.id } }),
    );
    expect(audited).toBeGreaterThan(0);
  });

  it("lists and ends a session there", async () => {
    const member = await t.createUser(orgB, ["users:read:own"]);
    const listed = await t.app.inject({
      method: "GET",
      url: `/users/${member.id}/sessions`,
      headers: as(platformAdmin, orgB),
    });
    expect(listed.statusCode).toBe(200);
    const sessions = listed.json() as Array<{ id: string; userId: string }>;
    expect(sessions).toHaveLength(1);
    const [session] = sessions;
    const ended = await t.app.inject({
      method: "DELETE",
      url: `/sessions/${session?.id}`,
      headers: as(platformAdmin, orgB),
    });
    expect(ended.statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/account", headers: member.headers })).statusCode).toBe(
      401,
    );
    const entries = await t.db.withTenant(orgB, (tx) =>
      tx.auditEntry.findMany({
        where: { entity: "session", entityId: session?.id },
        select: { userId: true, tenantId: true },
      }),
    );
    expect(entries).toContainEqual({ userId: platformAdmin.id, tenantId: orgB });
    // B's organization-wide session list no longer has it.
    const all = await t.app.inject({ method: "GET", url: "/sessions", headers: as(platformAdmin, orgB) });
    expect(all.statusCode).toBe(200);
    expect((all.json().items as Array<{ id: string }>).map((s) => s.id)).not.toContain(session?.id);
  });

  it("creates a role there and assigns it, but cannot grant a platform-only permission there", async () => {
    const member = await t.createUser(orgB, ["users:read:own"]);
    const role = await t.app.inject({
      method: "POST",
      url: "/roles",
      headers: as(platformAdmin, orgB),
      payload: { name: "Bookkeepers", permissions: ["users:read:all"] },
    });
    expect(role.statusCode).toBe(201);
    const roleId = role.json().id as string;
    const inB = await t.db.withTenant(orgB, (tx) => tx.role.count({ where: { id: roleId } }));
    expect(inB).toBe(1);

    const assigned = await t.app.inject({
      method: "POST",
      url: `/users/${member.id}/roles`,
      headers: as(platformAdmin, orgB),
      payload: { roleIds: [roleId] },
    });
    expect(assigned.statusCode).toBe(200);
    expect((assigned.json().roles as Array<{ id: string }>).map((r) => r.id)).toContain(roleId);
    const audited = await t.db.withTenant(orgB, (tx) =>
      tx.auditEntry.count({ where: { entityId: member.id, userId: platformAdmin.id } }),
    );
    expect(audited).toBeGreaterThan(0);

    const platformOnly = await t.app.inject({
      method: "POST",
      url: "/roles",
      headers: as(platformAdmin, orgB),
      payload: { name: "Operators", permissions: ["tenants:read:all"] },
    });
    expect(platformOnly.statusCode).toBe(400);
    expect(platformOnly.json().error.reason).toBe("role.platform_permission");
    // Nor do platform-only routes answer in another organization.
    const tenants = await t.app.inject({ method: "GET", url: "/tenants", headers: as(platformAdmin, orgB) });
    expect(tenants.statusCode).toBe(403);
  });

  it("stays inside that organization: another organization's records are not found there", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: `/users/${adminA.id}`,
      headers: as(platformAdmin, orgB),
    });
    expect(res.statusCode).toBe(404);
    const own = await t.app.inject({
      method: "GET",
      url: `/users/${platformAdmin.id}`,
      headers: as(platformAdmin, orgB),
    });
    expect(own.statusCode).toBe(404);
  });
});

describe("who may name an organization", () => {
  it("an organization's administrator may not reach another one (403, whether it exists or not)", async () => {
    for (const target of [orgB, platformTenantId, "0190a3c4-0000-7000-8000-000000000000"]) {
      const res = await t.app.inject({ method: "GET", url: "/users", headers: as(adminA, target) });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.reason).toBe("tenant.act_forbidden");
    }
    const change = await t.app.inject({
      method: "POST",
      url: "/users",
      headers: as(adminA, orgB),
      payload: { email: "intruder@alpha.uz", firstName: "I", lastName: "N" },
    });
    expect(change.statusCode).toBe(403);
    const intruders = await t.db.withTenant(orgB, (tx) =>
      tx.user.count({ where: { email: "intruder@alpha.uz" } }),
    );
    expect(intruders).toBe(0);
  });

  it("naming one's own organization changes nothing", async () => {
    const res = await t.app.inject({ method: "GET", url: "/users", headers: as(adminA, orgA) });
    expect(res.statusCode).toBe(200);
    expect(emailsOf(res.json())).toEqual([adminA.email]);
  });

  it("a platform user needs tenants:read:all to read and tenants:update:all to change there", async () => {
    const staff = await t.app.inject({ method: "GET", url: "/users", headers: as(platformStaff, orgB) });
    expect(staff.statusCode).toBe(403);
    const read = await t.app.inject({ method: "GET", url: "/users", headers: as(platformReader, orgB) });
    expect(read.statusCode).toBe(200);
    expect(emailsOf(read.json())).toContain(adminB.email);
    const change = await t.app.inject({
      method: "PUT",
      url: `/users/${adminB.id}`,
      headers: as(platformReader, orgB),
      payload: { firstName: "Changed" },
    });
    expect(change.statusCode).toBe(403);
    expect(change.json().error.reason).toBe("tenant.act_forbidden");
  });

  it("an unknown organization is 404, a malformed id 400, a refusal 403, in the caller's language", async () => {
    const russian = await speaking(await t.createUser(platformTenantId, "admin"), "ru");
    const uzbek = await speaking(await t.createUser(platformTenantId, "admin"), "uz");
    const uzbekOfA = await speaking(await t.createUser(orgA, "admin"), "uz");
    const unknown = await t.app.inject({
      method: "GET",
      url: "/users",
      headers: as(russian, "0190a3c4-0000-7000-8000-000000000000"),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toMatchObject({
      reason: "tenant.not_found",
      message: "Организация не найдена.",
    });

    const malformed = await t.app.inject({
      method: "GET",
      url: "/users",
      headers: as(uzbek, "bravo"),
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.issues).toEqual([
      { path: "x-tenant-id", message: "tashkilot identifikatori (UUID) boʻlishi kerak" },
    ]);

    const forbidden = await t.app.inject({ method: "GET", url: "/users", headers: as(uzbekOfA, orgB) });
    expect(forbidden.json().error.message).toBe(
      "Boshqa tashkilotda faqat platforma administratori ishlay oladi.",
    );
  });

  it("routes about the caller themselves refuse the header instead of ignoring it", async () => {
    const res = await t.app.inject({ method: "GET", url: "/account", headers: as(platformAdmin, orgB) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues).toEqual([{ path: "x-tenant-id", message: "is not taken by this route" }]);
    // Nor do the books, GraphQL or tRPC take it: only organization administration does.
    for (const [method, url] of [
      ["GET", "/tenant/currencies"],
      ["POST", "/api/graphql"],
      ["GET", "/trpc/users.list"],
    ] as const) {
      const refused = await t.app.inject({
        method,
        url,
        headers: { ...as(platformAdmin, orgB), "content-type": "application/json" },
        ...(method === "POST" ? { payload: { query: "{ __typename }" } } : {}),
      });
      expect(refused.statusCode, url).toBe(400);
    }
  });

  it("another user's connected applications are administration too: listed in that organization", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: `/users/${adminB.id}/consents`,
      headers: as(platformAdmin, orgB),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    const elsewhere = await t.app.inject({
      method: "GET",
      url: `/users/${adminB.id}/consents`,
      headers: as(platformAdmin),
    });
    expect(elsewhere.statusCode).toBe(404);
  });
});

describe("GET /auth/methods", () => {
  it("says no upstream provider is configured when none is, to any signed-in caller only", async () => {
    const res = await t.app.inject({ method: "GET", url: "/auth/methods", headers: as(adminA) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ password: true, external: null });
    expect((await t.app.inject({ method: "GET", url: "/auth/methods" })).statusCode).toBe(401);
  });
});
