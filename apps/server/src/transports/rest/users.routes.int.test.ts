import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

let t: TestApp;
let tenantA: { id: string; adminRoleId: string };
let tenantB: { id: string; adminRoleId: string };
let adminA: SeededUser;
let adminB: SeededUser;
let readerA: SeededUser;
let selfOnlyA: SeededUser;

beforeAll(async () => {
  t = await createTestApp();
  tenantA = await t.createTenant("A");
  tenantB = await t.createTenant("B");
  adminA = await t.createUser(tenantA.id, "admin");
  adminB = await t.createUser(tenantB.id, "admin");
  readerA = await t.createUser(tenantA.id, ["users:read:all"]);
  selfOnlyA = await t.createUser(tenantA.id, ["users:read:own", "users:update:own"]);
});

afterAll(async () => {
  await t?.close();
});

const newUser = (overrides: Record<string, unknown> = {}) => ({
  email: `new.${Math.random().toString(36).slice(2)}@example.com`,
  firstName: "Nodira",
  lastName: "Karimova",
  password: "Str0ng-Passw0rd",
  uiLanguage: "uz",
  ...overrides,
});

describe("POST /users", () => {
  it("creates a user with roles and returns it without any password material", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/users",
      headers: adminA.headers,
      payload: newUser({ roleIds: [tenantA.adminRoleId], email: "Nodira@Example.com" }),
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      email: "nodira@example.com",
      firstName: "Nodira",
      uiLanguage: "uz",
      active: true,
      hasPassword: true,
      avatarUrl: null,
      roles: [{ id: tenantA.adminRoleId, name: "admin" }],
      groups: [],
    });
    expect(body.permissions).toContain("users:create:all");
    expect(body).not.toHaveProperty("password");
    expect(body).not.toHaveProperty("passwordHash");
    expect(JSON.stringify(body)).not.toMatch(/argon2|Str0ng-Passw0rd/);
    await t.outbox.drain();
  });

  it("raises UserCreated through the outbox, after commit", async () => {
    const seen: unknown[] = [];
    const off = t.outbox.subscribe("UserCreated", (event) => {
      seen.push(event.payload);
    });
    const res = await t.app.inject({
      method: "POST",
      url: "/users",
      headers: adminA.headers,
      payload: newUser(),
    });
    await t.outbox.drain();
    off();
    expect(seen).toContainEqual({ userId: res.json().id, email: res.json().email });
  });

  it("names the missing field and refuses weak passwords and duplicates", async () => {
    const missing = await t.app.inject({
      method: "POST",
      url: "/users",
      headers: adminA.headers,
      payload: { firstName: "A", lastName: "B" },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({
      code: "VALIDATION_ERROR",
      message: "validation error: email is required",
    });

    const weak = await t.app.inject({
      method: "POST",
      url: "/users",
      headers: adminA.headers,
      payload: newUser({ password: "password" }),
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.issues).toContainEqual({
      path: "password",
      message: expect.stringMatching(/at least 10/),
    });

    const dup = await t.app.inject({
      method: "POST",
      url: "/users",
      headers: adminB.headers,
      payload: newUser({ email: adminA.email }),
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.reason).toBe("user.email_taken");
  });

  it("refuses a role of another tenant", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/users",
      headers: adminB.headers,
      payload: newUser({ roleIds: [tenantA.adminRoleId] }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.reason).toBe("user.unknown_role");
  });

  it("401 without credentials, 403 without users:create:all", async () => {
    expect((await t.app.inject({ method: "POST", url: "/users", payload: newUser() })).statusCode).toBe(401);
    const res = await t.app.inject({
      method: "POST",
      url: "/users",
      headers: readerA.headers,
      payload: newUser(),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({ code: "FORBIDDEN", message: "Forbidden" });
  });
});

describe("GET /users", () => {
  it("pages, sorts, filters and counts within the tenant only", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/users?limit=2&sortBy=email&order=desc",
      headers: readerA.headers,
    });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.items).toHaveLength(2);
    expect(page.limit).toBe(2);
    expect(page.total).toBeGreaterThanOrEqual(4);
    const emails = page.items.map((u: { email: string }) => u.email);
    expect([...emails].sort().reverse()).toEqual(emails);

    const all = await t.app.inject({ method: "GET", url: "/users?limit=100", headers: readerA.headers });
    expect(all.json().items.map((u: { email: string }) => u.email)).not.toContain(adminB.email);

    const filtered = await t.app.inject({
      method: "GET",
      url: `/users?email=${encodeURIComponent(readerA.email.toUpperCase())}`,
      headers: readerA.headers,
    });
    expect(filtered.json()).toMatchObject({ total: 1, items: [{ email: readerA.email }] });

    const byRole = await t.app.inject({
      method: "GET",
      url: `/users?roleId=${tenantA.adminRoleId}&active=true`,
      headers: readerA.headers,
    });
    expect(
      byRole
        .json()
        .items.every((u: { roles: Array<{ name: string }> }) => u.roles.some((r) => r.name === "admin")),
    ).toBe(true);
  });

  it("lists only oneself with users:read:own", async () => {
    const res = await t.app.inject({ method: "GET", url: "/users", headers: selfOnlyA.headers });
    expect(res.json()).toMatchObject({ total: 1, items: [{ id: selfOnlyA.id }] });
  });

  it("rejects bad paging and sorting", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/users?limit=1000&sortBy=password",
      headers: readerA.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .error.issues.map((i: { path: string }) => i.path)
        .sort(),
    ).toEqual(["limit", "sortBy"]);
  });
});

describe("GET/PUT/DELETE /users/:id", () => {
  it("another tenant's user is 404, not 403", async () => {
    for (const method of ["GET", "PUT", "DELETE"] as const) {
      const res = await t.app.inject({
        method,
        url: `/users/${adminA.id}`,
        headers: adminB.headers,
        ...(method === "PUT" ? { payload: { firstName: "X" } } : {}),
      });
      expect(res.statusCode, method).toBe(404);
    }
  });

  it("users:read:own reads only oneself", async () => {
    expect(
      (await t.app.inject({ method: "GET", url: `/users/${selfOnlyA.id}`, headers: selfOnlyA.headers }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: "GET", url: `/users/${adminA.id}`, headers: selfOnlyA.headers }))
        .statusCode,
    ).toBe(404);
  });

  it("users:update:own may change own name but not own active flag", async () => {
    const ok = await t.app.inject({
      method: "PUT",
      url: `/users/${selfOnlyA.id}`,
      headers: selfOnlyA.headers,
      payload: { firstName: "Me" },
    });
    expect(ok.json().firstName).toBe("Me");
    const no = await t.app.inject({
      method: "PUT",
      url: `/users/${selfOnlyA.id}`,
      headers: selfOnlyA.headers,
      payload: { active: false },
    });
    expect(no.statusCode).toBe(403);
  });

  it("deactivating a user kills their sessions at once", async () => {
    const victim = await t.createUser(tenantA.id, ["users:read:own"]);
    expect((await t.app.inject({ method: "GET", url: "/account", headers: victim.headers })).statusCode).toBe(
      200,
    );
    const res = await t.app.inject({
      method: "PUT",
      url: `/users/${victim.id}`,
      headers: adminA.headers,
      payload: { active: false },
    });
    expect(res.json().active).toBe(false);
    expect((await t.app.inject({ method: "GET", url: "/account", headers: victim.headers })).statusCode).toBe(
      401,
    );
  });

  it("assigns and unassigns roles; effective permissions follow", async () => {
    const plain = await t.createUser(tenantA.id, []);
    const assigned = await t.app.inject({
      method: "POST",
      url: `/users/${plain.id}/roles`,
      headers: adminA.headers,
      payload: { roleIds: [tenantA.adminRoleId] },
    });
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json().permissions).toContain("users:delete:all");
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/users/${plain.id}/roles/${tenantA.adminRoleId}`,
      headers: adminA.headers,
    });
    expect(removed.json().permissions).toEqual([]);
    const again = await t.app.inject({
      method: "DELETE",
      url: `/users/${plain.id}/roles/${tenantA.adminRoleId}`,
      headers: adminA.headers,
    });
    expect(again.statusCode).toBe(404);
  });

  it("deletes a user, but not oneself", async () => {
    const doomed = await t.createUser(tenantA.id, []);
    expect(
      (await t.app.inject({ method: "DELETE", url: `/users/${doomed.id}`, headers: adminA.headers }))
        .statusCode,
    ).toBe(204);
    expect(
      (await t.app.inject({ method: "GET", url: `/users/${doomed.id}`, headers: adminA.headers })).statusCode,
    ).toBe(404);
    const self = await t.app.inject({
      method: "DELETE",
      url: `/users/${adminA.id}`,
      headers: adminA.headers,
    });
    expect(self.statusCode).toBe(422);
  });

  it("a malformed id is a validation error", async () => {
    const res = await t.app.inject({ method: "GET", url: "/users/1%20OR%201=1", headers: adminA.headers });
    expect(res.statusCode).toBe(400);
  });
});

describe("PUT /users/:id/groups and an administrator's password reset", () => {
  const createGroup = async (admin: SeededUser, name: string, roleIds: string[] = []) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/groups",
      headers: admin.headers,
      payload: { name, roleIds },
    });
    expect(res.statusCode).toBe(201);
    return res.json().id as string;
  };
  const setGroups = (who: SeededUser, userId: string, payload: unknown) =>
    t.app.inject({
      method: "PUT",
      url: `/users/${userId}/groups`,
      headers: who.headers,
      payload: payload as object,
    });

  it("replaces the user's groups in one step, audited; effective permissions follow", async () => {
    const member = await t.createUser(tenantA.id, []);
    const readers = await t.app.inject({
      method: "POST",
      url: "/roles",
      headers: adminA.headers,
      payload: { name: `readers-${Date.now()}`, permissions: ["users:read:all"] },
    });
    expect(readers.statusCode).toBe(201);
    const g1 = await createGroup(adminA, `g1-${Date.now()}`, [readers.json().id]);
    const g2 = await createGroup(adminA, `g2-${Date.now()}`);
    const first = await setGroups(adminA, member.id, { groupIds: [g1, g2, g1] });
    expect(first.statusCode).toBe(200);
    expect(
      first
        .json()
        .groups.map((g: { id: string }) => g.id)
        .sort(),
    ).toEqual([g1, g2].sort());
    expect(first.json().permissions).toContain("users:read:all");
    const second = await setGroups(adminA, member.id, { groupIds: [g2] });
    expect(second.json().groups.map((g: { id: string }) => g.id)).toEqual([g2]);
    expect(second.json().permissions).not.toContain("users:read:all");
    // Setting the same list again changes nothing and writes no entry.
    expect((await setGroups(adminA, member.id, { groupIds: [g2] })).statusCode).toBe(200);
    const log = await t.app.inject({
      method: "GET",
      url: `/audit?entity=user_group&entityId=${member.id}`,
      headers: adminA.headers,
    });
    expect(log.json().items).toHaveLength(2);
    expect(log.json().items[0]).toMatchObject({
      action: "set",
      before: { groupIds: [g1, g2].sort() },
      after: { groupIds: [g2] },
    });
    expect((await setGroups(adminA, member.id, { groupIds: [] })).json().groups).toEqual([]);
  });

  it("refuses wrong, missing, oversized and hostile input with 400, and another tenant's ids", async () => {
    const member = await t.createUser(tenantA.id, []);
    const bodies: unknown[] = [
      {},
      { groupIds: "x" },
      { groupIds: ["not-a-uuid"] },
      { groupIds: Array.from({ length: 51 }, () => crypto.randomUUID()) },
      { groupIds: [], extra: true },
      { groupIds: [{ $ne: null }] },
      { groupIds: ["'; DROP TABLE users; --"] },
    ];
    for (const body of bodies) {
      const res = await setGroups(adminA, member.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
    }
    const noBody = await t.app.inject({
      method: "PUT",
      url: `/users/${member.id}/groups`,
      headers: adminA.headers,
    });
    expect(noBody.statusCode).toBe(400);
    const theirGroup = await createGroup(adminB, `theirs-${Date.now()}`);
    const foreign = await setGroups(adminA, member.id, { groupIds: [theirGroup] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.reason).toBe("user.unknown_group");
    // Another tenant's user does not exist here.
    const ownGroup = await createGroup(adminA, `own-${Date.now()}`);
    expect((await setGroups(adminA, adminB.id, { groupIds: [ownGroup] })).statusCode).toBe(404);
    expect((await setGroups(adminA, "not-a-uuid", { groupIds: [] })).statusCode).toBe(400);
  });

  it("needs users:update:all and groups:update:all, and never grants more than the caller holds", async () => {
    const member = await t.createUser(tenantA.id, []);
    const group = await createGroup(adminA, `admins-${Date.now()}`, [tenantA.adminRoleId]);
    expect(
      (await t.app.inject({ method: "PUT", url: `/users/${member.id}/groups`, payload: { groupIds: [] } }))
        .statusCode,
    ).toBe(401);
    const usersOnly = await t.createUser(tenantA.id, ["users:update:all", "users:read:all"]);
    expect((await setGroups(usersOnly, member.id, { groupIds: [] })).statusCode).toBe(403);
    const editor = await t.createUser(tenantA.id, ["users:update:all", "groups:update:all"]);
    const escalate = await setGroups(editor, editor.id, { groupIds: [group] });
    expect(escalate.statusCode).toBe(403);
    expect(escalate.json().error.reason).toBe("auth.cannot_grant");
    expect((await setGroups(adminA, member.id, { groupIds: [group] })).statusCode).toBe(200);
    // Taking an administrator out of their group needs what they hold.
    const lockout = await setGroups(editor, member.id, { groupIds: [] });
    expect(lockout.statusCode).toBe(403);
    expect(lockout.json().error.reason).toBe("user.outranks_you");
  });

  it("an administrator sets a user's password: the policy holds, their sessions end, the log says only that it changed", async () => {
    const member = await t.createUser(tenantA.id, []);
    expect((await t.app.inject({ method: "GET", url: "/account", headers: member.headers })).statusCode).toBe(
      200,
    );
    const weak = await t.app.inject({
      method: "PUT",
      url: `/users/${member.id}`,
      headers: adminA.headers,
      payload: { password: "password" },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.issues[0].path).toBe("password");
    const huge = await t.app.inject({
      method: "PUT",
      url: `/users/${member.id}`,
      headers: adminA.headers,
      payload: { password: "Aa1!".repeat(10_000) },
    });
    expect(huge.statusCode).toBe(400);
    const reset = await t.app.inject({
      method: "PUT",
      url: `/users/${member.id}`,
      headers: adminA.headers,
      payload: { password: "Typed-By-Admin-2026" },
    });
    expect(reset.statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/account", headers: member.headers })).statusCode).toBe(
      401,
    );
    const login = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      payload: { email: member.email, password: "Typed-By-Admin-2026" },
    });
    expect(login.statusCode).toBe(200);
    const log = await t.app.inject({
      method: "GET",
      url: `/audit?entity=user&entityId=${member.id}&action=update`,
      headers: adminA.headers,
    });
    expect(log.json().items[0].after).toEqual({ passwordChanged: true });
    expect(JSON.stringify(log.json())).not.toContain("Typed-By-Admin");
  });
});

describe("cookie authentication and CSRF", () => {
  it("a cookie-authenticated change needs JSON or the CSRF header", async () => {
    const form = await t.app.inject({
      method: "DELETE",
      url: `/users/${readerA.id}`,
      headers: { cookie: adminA.cookie },
    });
    expect(form.statusCode).toBe(403);
    expect(form.json().error.reason).toBe("auth.csrf_required");
    const read = await t.app.inject({
      method: "GET",
      url: `/users/${readerA.id}`,
      headers: { cookie: adminA.cookie },
    });
    expect(read.statusCode).toBe(200);
    const json = await t.app.inject({
      method: "PUT",
      url: `/users/${readerA.id}`,
      headers: { cookie: adminA.cookie },
      payload: { lastName: "Json" },
    });
    expect(json.statusCode).toBe(200);
  });
});
