import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

// Whoever may edit roles, groups or users still cannot hand out permissions they do not hold.

let t: TestApp;
let tenant: { id: string; adminRoleId: string };
let roleEditor: SeededUser;
let groupEditor: SeededUser;
let userEditor: SeededUser;
let admin: SeededUser;

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.createTenant("Escalation Co");
  admin = await t.createUser(tenant.id, "admin");
  roleEditor = await t.createUser(tenant.id, ["roles:read:all", "roles:create:all", "roles:update:all"]);
  groupEditor = await t.createUser(tenant.id, ["groups:read:all", "groups:create:all", "groups:update:all"]);
  userEditor = await t.createUser(tenant.id, ["users:read:all", "users:create:all", "users:update:all"]);
});

afterAll(async () => {
  await t?.close();
});

describe("no one grants more than they hold", () => {
  it("a role editor cannot put permissions they lack into a role", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/roles",
      headers: roleEditor.headers,
      payload: { name: "sneaky", permissions: ["users:delete:all"] },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({ code: "FORBIDDEN", reason: "auth.cannot_grant" });
    const ok = await t.app.inject({
      method: "POST",
      url: "/roles",
      headers: roleEditor.headers,
      payload: { name: "readers", permissions: ["roles:read:all"] },
    });
    expect(ok.statusCode).toBe(201);
    const add = await t.app.inject({
      method: "POST",
      url: `/roles/${ok.json().id}/permissions`,
      headers: roleEditor.headers,
      payload: { permissions: ["users:delete:all"] },
    });
    expect(add.statusCode).toBe(403);
  });

  it("a user editor cannot assign the admin role, to others or to themselves", async () => {
    const self = await t.app.inject({
      method: "POST",
      url: `/users/${userEditor.id}/roles`,
      headers: userEditor.headers,
      payload: { roleIds: [tenant.adminRoleId] },
    });
    expect(self.statusCode).toBe(403);
    const create = await t.app.inject({
      method: "POST",
      url: "/users",
      headers: userEditor.headers,
      payload: { email: "puppet@example.com", firstName: "P", lastName: "P", roleIds: [tenant.adminRoleId] },
    });
    expect(create.statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: "GET", url: "/users?email=puppet", headers: admin.headers })).json()
        .total,
    ).toBe(0);
  });

  it("a group editor cannot join a group that carries permissions they lack", async () => {
    const group = await t.app.inject({
      method: "POST",
      url: "/groups",
      headers: admin.headers,
      payload: { name: "admins", roleIds: [tenant.adminRoleId] },
    });
    expect(group.statusCode).toBe(201);
    const join = await t.app.inject({
      method: "POST",
      url: `/groups/${group.json().id}/users`,
      headers: groupEditor.headers,
      payload: { userIds: [groupEditor.id] },
    });
    expect(join.statusCode).toBe(403);
    const own = await t.app.inject({
      method: "POST",
      url: "/groups",
      headers: groupEditor.headers,
      payload: { name: "mine", roleIds: [tenant.adminRoleId] },
    });
    expect(own.statusCode).toBe(403);
    const me = await t.app.inject({ method: "GET", url: "/account", headers: groupEditor.headers });
    expect(me.json().permissions).not.toContain("users:delete:all");
  });

  it("the admin role's permissions cannot be changed, so a tenant cannot lock itself out", async () => {
    const put = await t.app.inject({
      method: "PUT",
      url: `/roles/${tenant.adminRoleId}`,
      headers: admin.headers,
      payload: { permissions: ["users:read:all"] },
    });
    expect(put.statusCode).toBe(422);
    expect(put.json().error.reason).toBe("role.builtin");
    const revoke = await t.app.inject({
      method: "DELETE",
      url: `/roles/${tenant.adminRoleId}/permissions/users:read:all`,
      headers: admin.headers,
    });
    expect(revoke.statusCode).toBe(422);
    const describe = await t.app.inject({
      method: "PUT",
      url: `/roles/${tenant.adminRoleId}`,
      headers: admin.headers,
      payload: { description: "Everything" },
    });
    expect(describe.statusCode).toBe(200);
  });

  it("an administrator can grant anything", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: `/users/${userEditor.id}/roles`,
      headers: admin.headers,
      payload: { roleIds: [tenant.adminRoleId] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().permissions).toContain("users:delete:all");
  });
});
