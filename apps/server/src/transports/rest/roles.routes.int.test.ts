import { provisionTenant } from "@hisob/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, expectError, expectValidationNaming, MISSING_ID } from "../../testing/rest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

let t: TestApp;
let tenantA: { id: string; adminRoleId: string };
let tenantB: { id: string; adminRoleId: string };
let platformAdmin: SeededUser;
let adminA: SeededUser;
let adminB: SeededUser;
let readerA: SeededUser;
let creatorA: SeededUser;

const HOSTILE = "'; DROP TABLE roles; --";

beforeAll(async () => {
  t = await createTestApp();
  const platform = await provisionTenant(
    { db: t.db, outbox: t.outbox },
    { name: "Platform", isPlatform: true },
  );
  tenantA = await t.createTenant("A");
  tenantB = await t.createTenant("B");
  platformAdmin = await t.createUser(platform.id, "admin");
  adminA = await t.createUser(tenantA.id, "admin");
  adminB = await t.createUser(tenantB.id, "admin");
  readerA = await t.createUser(tenantA.id, ["roles:read:all"]);
  creatorA = await t.createUser(tenantA.id, ["roles:create:all"]);
});

afterAll(async () => {
  await t?.close();
});

const call = caller(() => t);

let sequence = 0;
const uniqueName = (prefix = "role") => `${prefix}-${++sequence}-${Math.random().toString(36).slice(2, 8)}`;

/** A role in `caller`'s tenant, created through the API. */
const createRole = async (caller: SeededUser, body: Record<string, unknown> = {}) => {
  const res = await call(caller, "POST", "/roles", { name: uniqueName(), ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string; permissions: string[]; userCount: number };
};

const expectFieldError = expectValidationNaming;

describe("POST /roles", () => {
  it("creates a role with sorted, de-duplicated permissions", async () => {
    const name = uniqueName("Accountants");
    const res = await call(adminA, "POST", "/roles", {
      name: `  ${name}  `,
      description: "Books and reports",
      permissions: ["payments:read:all", "accounts:read:all", "payments:read:all"],
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name,
      description: "Books and reports",
      permissions: ["accounts:read:all", "payments:read:all"],
      userCount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
  });

  it("answers a caller holding only roles:create:all with the new role", async () => {
    const res = await call(creatorA, "POST", "/roles", { name: uniqueName() });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ permissions: [], description: "" });
  });

  it("refuses unknown and platform-only permissions, naming them", async () => {
    const unknown = expectError(
      await call(adminA, "POST", "/roles", {
        name: uniqueName(),
        permissions: ["roles:read:all", "ghost:haunt:all"],
      }),
      400,
      "VALIDATION_ERROR",
      "role.unknown_permission",
    );
    expect(unknown.message).toContain("ghost:haunt:all");
    expect(unknown.message).not.toContain("roles:read:all");

    const hostile = expectError(
      await call(adminA, "POST", "/roles", { name: uniqueName(), permissions: [HOSTILE] }),
      400,
      "VALIDATION_ERROR",
      "role.unknown_permission",
    );
    expect(hostile.message).toContain(HOSTILE);

    const platform = expectError(
      await call(adminA, "POST", "/roles", { name: uniqueName(), permissions: ["tenants:create:all"] }),
      400,
      "VALIDATION_ERROR",
      "role.platform_permission",
    );
    expect(platform.message).toContain("tenants:create:all");
  });

  it("grants platform-only permissions in the platform tenant", async () => {
    const role = await createRole(platformAdmin, { permissions: ["tenants:create:all"] });
    expect(role.permissions).toEqual(["tenants:create:all"]);
  });

  it("names the missing field and refuses bad input", async () => {
    const missing = expectError(
      await call(adminA, "POST", "/roles", { description: "x" }),
      400,
      "VALIDATION_ERROR",
    );
    expect(missing.message).toBe("validation error: name is required");

    expectFieldError(await call(adminA, "POST", "/roles", { name: "   " }), "name");

    const long = await call(adminA, "POST", "/roles", {
      name: "x".repeat(101),
      description: "d".repeat(1001),
    });
    expectError(long, 400, "VALIDATION_ERROR");
    expect(
      long
        .json()
        .error.issues.map((i: { path: string }) => i.path)
        .sort(),
    ).toEqual(["description", "name"]);

    const types = await call(adminA, "POST", "/roles", { name: 42, permissions: "roles:read:all" });
    expectError(types, 400, "VALIDATION_ERROR");
    expect(
      types
        .json()
        .error.issues.map((i: { path: string }) => i.path)
        .sort(),
    ).toEqual(["name", "permissions"]);

    expectFieldError(
      await call(adminA, "POST", "/roles", { name: uniqueName(), tenantId: tenantB.id }),
      "tenantId",
    );

    expectError(await call(adminA, "POST", "/roles", ["not", "an", "object"]), 400, "VALIDATION_ERROR");
  });

  it("names are unique per tenant", async () => {
    const name = uniqueName();
    await createRole(adminA, { name });
    expectError(await call(adminA, "POST", "/roles", { name }), 409, "CONFLICT", "role.name_taken");
    expectError(await call(adminA, "POST", "/roles", { name: "admin" }), 409, "CONFLICT", "role.name_taken");
    expect((await call(adminB, "POST", "/roles", { name })).statusCode).toBe(201);
  });

  it("stores a hostile name verbatim and harmlessly", async () => {
    const role = await createRole(adminA, {
      name: HOSTILE,
      description: `<script>alert(1)</script> ${HOSTILE}`,
    });
    expect(role.name).toBe(HOSTILE);
    const read = await call(readerA, "GET", `/roles/${role.id}`);
    expect(read.json()).toMatchObject({ name: HOSTILE, description: `<script>alert(1)</script> ${HOSTILE}` });
    const found = await call(readerA, "GET", `/roles?name=${encodeURIComponent(HOSTILE)}`);
    expect(found.json()).toMatchObject({ total: 1, items: [{ id: role.id }] });
    // The table is still there and still answers.
    expect((await call(readerA, "GET", "/roles")).json().total).toBeGreaterThan(1);
  });

  it("401 without credentials, 403 without roles:create:all", async () => {
    expectError(await call(null, "POST", "/roles", { name: uniqueName() }), 401, "UNAUTHENTICATED");
    expectError(
      await call(readerA, "POST", "/roles", { name: uniqueName() }),
      403,
      "FORBIDDEN",
      "auth.forbidden",
    );
  });
});

describe("GET /roles", () => {
  it("pages, sorts and filters within the tenant only", async () => {
    const tag = uniqueName("Paging");
    for (const suffix of ["b", "a", "c"]) await createRole(adminA, { name: `${tag}-${suffix}` });

    const page = await call(
      readerA,
      "GET",
      `/roles?name=${tag.toUpperCase()}&sortBy=name&order=desc&limit=2`,
    );
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(page.json().items.map((r: { name: string }) => r.name)).toEqual([`${tag}-c`, `${tag}-b`]);
    const next = await call(readerA, "GET", `/roles?name=${tag}&sortBy=name&order=desc&limit=2&offset=2`);
    expect(next.json().items.map((r: { name: string }) => r.name)).toEqual([`${tag}-a`]);

    const byDate = await call(readerA, "GET", `/roles?name=${tag}&sortBy=createdAt`);
    expect(byDate.json().items.map((r: { name: string }) => r.name)).toEqual([
      `${tag}-b`,
      `${tag}-a`,
      `${tag}-c`,
    ]);

    const all = await call(readerA, "GET", "/roles?limit=100");
    const ids = all.json().items.map((r: { id: string }) => r.id);
    expect(ids).toContain(tenantA.adminRoleId);
    expect(ids).not.toContain(tenantB.adminRoleId);
  });

  it("rejects bad paging, sorting and filters", async () => {
    const res = await call(readerA, "GET", "/roles?limit=1000&offset=-1&sortBy=permissions&order=sideways");
    expectError(res, 400, "VALIDATION_ERROR");
    expect(
      res
        .json()
        .error.issues.map((i: { path: string }) => i.path)
        .sort(),
    ).toEqual(["limit", "offset", "order", "sortBy"]);
    expectError(await call(readerA, "GET", `/roles?name=${"x".repeat(101)}`), 400, "VALIDATION_ERROR");
  });

  it("401 without credentials, 403 without roles:read:all", async () => {
    expectError(await call(null, "GET", "/roles"), 401, "UNAUTHENTICATED");
    expectError(await call(creatorA, "GET", "/roles"), 403, "FORBIDDEN");
  });
});

describe("GET /roles/:id", () => {
  it("returns the role with the count of users holding it", async () => {
    const res = await call(readerA, "GET", `/roles/${tenantA.adminRoleId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: tenantA.adminRoleId, name: "admin", userCount: 1 });
    expect(res.json().permissions).toContain("roles:delete:all");
    expect(res.json().permissions).not.toContain("tenants:create:all");
  });

  it("another tenant's role and an unknown id are 404; a malformed id is 400", async () => {
    expectError(
      await call(adminA, "GET", `/roles/${tenantB.adminRoleId}`),
      404,
      "NOT_FOUND",
      "role.not_found",
    );
    expectError(await call(adminA, "GET", `/roles/${MISSING_ID}`), 404, "NOT_FOUND", "role.not_found");
    expectError(await call(adminA, "GET", "/roles/1%20OR%201=1"), 400, "VALIDATION_ERROR");
  });

  it("401 without credentials, 403 without roles:read:all", async () => {
    expectError(await call(null, "GET", `/roles/${tenantA.adminRoleId}`), 401, "UNAUTHENTICATED");
    expectError(await call(creatorA, "GET", `/roles/${tenantA.adminRoleId}`), 403, "FORBIDDEN");
  });
});

describe("PUT /roles/:id", () => {
  it("renames, describes and replaces the permission set", async () => {
    const role = await createRole(adminA, { permissions: ["payments:read:all", "expenses:read:all"] });
    const name = uniqueName("Renamed");
    const res = await call(adminA, "PUT", `/roles/${role.id}`, {
      name,
      description: "New",
      permissions: ["reports:read:all"],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: role.id,
      name,
      description: "New",
      permissions: ["reports:read:all"],
    });

    const kept = await call(adminA, "PUT", `/roles/${role.id}`, { description: "Only this" });
    expect(kept.json()).toMatchObject({ name, permissions: ["reports:read:all"] });
    const cleared = await call(adminA, "PUT", `/roles/${role.id}`, { permissions: [] });
    expect(cleared.json().permissions).toEqual([]);
  });

  it("the admin role keeps its name but may change its description", async () => {
    expectError(
      await call(adminA, "PUT", `/roles/${tenantA.adminRoleId}`, { name: "boss" }),
      422,
      "BUSINESS_RULE",
      "role.builtin",
    );
    const same = await call(adminA, "PUT", `/roles/${tenantA.adminRoleId}`, {
      name: "admin",
      description: "All",
    });
    expect(same.json()).toMatchObject({ name: "admin", description: "All" });
  });

  it("refuses a taken name, unknown and platform-only permissions, and unknown fields", async () => {
    const first = await createRole(adminA);
    const second = await createRole(adminA);
    expectError(
      await call(adminA, "PUT", `/roles/${second.id}`, { name: first.name }),
      409,
      "CONFLICT",
      "role.name_taken",
    );
    expectError(
      await call(adminA, "PUT", `/roles/${second.id}`, { permissions: ["roles:fly:all"] }),
      400,
      "VALIDATION_ERROR",
      "role.unknown_permission",
    );
    expectError(
      await call(adminA, "PUT", `/roles/${second.id}`, { permissions: ["tenants:read:all"] }),
      400,
      "VALIDATION_ERROR",
      "role.platform_permission",
    );
    expectFieldError(await call(adminA, "PUT", `/roles/${second.id}`, { userCount: 9 }), "userCount");
    // Nothing of the refused changes stuck.
    expect((await call(adminA, "GET", `/roles/${second.id}`)).json()).toMatchObject({
      name: second.name,
      permissions: [],
    });
  });

  it("another tenant's role is 404; 401 without credentials; 403 without roles:update:all", async () => {
    expectError(
      await call(adminB, "PUT", `/roles/${tenantA.adminRoleId}`, { description: "x" }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await call(null, "PUT", `/roles/${tenantA.adminRoleId}`, { description: "x" }),
      401,
      "UNAUTHENTICATED",
    );
    expectError(
      await call(readerA, "PUT", `/roles/${tenantA.adminRoleId}`, { description: "x" }),
      403,
      "FORBIDDEN",
    );
  });
});

describe("DELETE /roles/:id", () => {
  it("deletes a role and its assignments; holders lose its permissions at once", async () => {
    const role = await createRole(adminA, { permissions: ["users:read:all"] });
    const holder = await t.createUser(tenantA.id, []);
    await call(adminA, "POST", `/users/${holder.id}/roles`, { roleIds: [role.id] });
    expect((await call(adminA, "GET", `/roles/${role.id}`)).json().userCount).toBe(1);
    expect((await call(holder, "GET", `/users/${holder.id}`)).statusCode).toBe(200);

    expect((await call(adminA, "DELETE", `/roles/${role.id}`)).statusCode).toBe(204);
    expectError(await call(adminA, "GET", `/roles/${role.id}`), 404, "NOT_FOUND", "role.not_found");
    expectError(await call(adminA, "DELETE", `/roles/${role.id}`), 404, "NOT_FOUND", "role.not_found");
    const user = (await call(adminA, "GET", `/users/${holder.id}`)).json();
    expect(user.roles.map((r: { id: string }) => r.id)).not.toContain(role.id);
    expect(user.permissions).toEqual([]);
    expectError(await call(holder, "GET", `/users/${holder.id}`), 403, "FORBIDDEN");
  });

  it("the admin role cannot be deleted", async () => {
    expectError(
      await call(adminA, "DELETE", `/roles/${tenantA.adminRoleId}`),
      422,
      "BUSINESS_RULE",
      "role.builtin",
    );
  });

  it("another tenant's role is 404; 401 without credentials; 403 without roles:delete:all", async () => {
    const role = await createRole(adminA);
    expectError(await call(adminB, "DELETE", `/roles/${role.id}`), 404, "NOT_FOUND");
    expectError(await call(null, "DELETE", `/roles/${role.id}`), 401, "UNAUTHENTICATED");
    expectError(await call(readerA, "DELETE", `/roles/${role.id}`), 403, "FORBIDDEN");
    expect((await call(adminA, "GET", `/roles/${role.id}`)).statusCode).toBe(200);
  });
});

describe("/roles/:id/permissions", () => {
  it("lists, adds idempotently and removes permissions", async () => {
    const role = await createRole(adminA, { permissions: ["reports:read:all"] });
    const url = `/roles/${role.id}/permissions`;
    expect((await call(readerA, "GET", url)).json()).toEqual(["reports:read:all"]);

    const added = await call(adminA, "POST", url, { permissions: ["payments:read:all", "reports:read:all"] });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual(["payments:read:all", "reports:read:all"]);
    const again = await call(adminA, "POST", url, { permissions: ["payments:read:all"] });
    expect(again.json()).toEqual(["payments:read:all", "reports:read:all"]);

    const removed = await call(adminA, "DELETE", `${url}/payments:read:all`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual(["reports:read:all"]);
    expectError(
      await call(adminA, "DELETE", `${url}/payments:read:all`),
      404,
      "NOT_FOUND",
      "role.permission_not_granted",
    );
    expectError(
      await call(adminA, "DELETE", `${url}/${encodeURIComponent(HOSTILE)}`),
      404,
      "NOT_FOUND",
      "role.permission_not_granted",
    );
    expect((await call(readerA, "GET", url)).json()).toEqual(["reports:read:all"]);
  });

  it("a permission removed from a role is gone from its holders' next request", async () => {
    const role = await createRole(adminA, { permissions: ["roles:read:all"] });
    const holder = await t.createUser(tenantA.id, []);
    await call(adminA, "POST", `/users/${holder.id}/roles`, { roleIds: [role.id] });
    expect((await call(holder, "GET", "/roles")).statusCode).toBe(200);
    await call(adminA, "DELETE", `/roles/${role.id}/permissions/roles:read:all`);
    expectError(await call(holder, "GET", "/roles"), 403, "FORBIDDEN");
  });

  it("refuses unknown, platform-only, empty and malformed permission lists", async () => {
    const role = await createRole(adminA);
    const url = `/roles/${role.id}/permissions`;
    const unknown = expectError(
      await call(adminA, "POST", url, { permissions: ["roles:read:all", "roles:read:some"] }),
      400,
      "VALIDATION_ERROR",
      "role.unknown_permission",
    );
    expect(unknown.message).toContain("roles:read:some");
    expectError(
      await call(adminA, "POST", url, { permissions: ["tenants:update:all"] }),
      400,
      "VALIDATION_ERROR",
      "role.platform_permission",
    );
    expectFieldError(await call(adminA, "POST", url, { permissions: [] }), "permissions");
    const missing = expectError(await call(adminA, "POST", url, {}), 400, "VALIDATION_ERROR");
    expect(missing.message).toBe("validation error: permissions is required");
    expectFieldError(await call(adminA, "POST", url, { permissions: [1] }), "permissions.0");
    expect((await call(adminA, "GET", url)).json()).toEqual([]);
  });

  it("the platform tenant may add platform-only permissions", async () => {
    const role = await createRole(platformAdmin);
    const res = await call(platformAdmin, "POST", `/roles/${role.id}/permissions`, {
      permissions: ["tenants:read:all"],
    });
    expect(res.json()).toEqual(["tenants:read:all"]);
  });

  it("another tenant's role is 404; 401 without credentials; 403 without the permission", async () => {
    const url = `/roles/${tenantA.adminRoleId}/permissions`;
    expectError(await call(adminB, "GET", url), 404, "NOT_FOUND", "role.not_found");
    expectError(await call(adminB, "POST", url, { permissions: ["roles:read:all"] }), 404, "NOT_FOUND");
    expectError(await call(adminB, "DELETE", `${url}/roles:read:all`), 404, "NOT_FOUND", "role.not_found");
    expectError(await call(null, "GET", url), 401, "UNAUTHENTICATED");
    expectError(await call(null, "POST", url, { permissions: ["roles:read:all"] }), 401, "UNAUTHENTICATED");
    expectError(await call(creatorA, "GET", url), 403, "FORBIDDEN");
    expectError(await call(readerA, "POST", url, { permissions: ["roles:read:all"] }), 403, "FORBIDDEN");
    expectError(await call(readerA, "DELETE", `${url}/roles:read:all`), 403, "FORBIDDEN");
    expect((await call(readerA, "GET", url)).json()).toContain("roles:read:all");
  });
});

describe("GET /permissions", () => {
  it("lists the registered permissions a tenant's role may hold", async () => {
    const res = await call(readerA, "GET", "/permissions");
    expect(res.statusCode).toBe(200);
    const list = res.json() as Array<{ name: string }>;
    expect(list).toContainEqual({
      name: "roles:read:all",
      resource: "roles",
      action: "read",
      modifier: "all",
      description: "Read roles",
      module: "core",
      platformOnly: false,
    });
    const names = list.map((p) => p.name);
    expect(names).toContain("payments:create:all");
    expect(names).not.toContain("tenants:create:all");
    expect([...names].sort()).toEqual(names);
  });

  it("shows platform-only permissions to the platform tenant", async () => {
    const list = (await call(platformAdmin, "GET", "/permissions")).json() as Array<{
      name: string;
      platformOnly: boolean;
    }>;
    expect(list).toContainEqual(expect.objectContaining({ name: "tenants:create:all", platformOnly: true }));
  });

  it("401 without credentials, 403 without roles:read:all", async () => {
    expectError(await call(null, "GET", "/permissions"), 401, "UNAUTHENTICATED");
    expectError(await call(creatorA, "GET", "/permissions"), 403, "FORBIDDEN");
  });
});
