import { insertUser } from "@hisob/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, expectError, expectValidationNaming, MISSING_ID } from "../../testing/rest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

let t: TestApp;
let tenantA: { id: string; adminRoleId: string };
let tenantB: { id: string; adminRoleId: string };
let adminA: SeededUser;
let adminB: SeededUser;
let readerA: SeededUser;
let memberA1: { id: string };
let memberA2: { id: string };
let outsiderA: SeededUser;
let groupB: { id: string };

const HOSTILE = "'; DROP TABLE groups; --";

const call = caller(() => t);

const expectFieldError = expectValidationNaming;

let sequence = 0;
const uniqueName = (prefix = "group") => `${prefix}-${++sequence}-${Math.random().toString(36).slice(2, 8)}`;

type GroupDto = {
  id: string;
  name: string;
  description: string;
  roles: Array<{ id: string; name: string }>;
  users: Array<{ id: string; email: string; firstName: string; lastName: string }>;
  createdAt: string;
  updatedAt: string;
};

const createGroup = async (caller: SeededUser, body: Record<string, unknown> = {}): Promise<GroupDto> => {
  const res = await call(caller, "POST", "/groups", { name: uniqueName(), ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};

const createRole = async (caller: SeededUser, permissions: string[]) => {
  const res = await call(caller, "POST", "/roles", { name: uniqueName("role"), permissions });
  expect(res.statusCode, res.body).toBe(201);
  const { id, name } = res.json() as { id: string; name: string };
  return { id, name };
};

/** A user who never signs in: no password, so no hashing cost. */
const createMember = (tenantId: string, lastName: string) =>
  t.db.withTenant(tenantId, (tx) =>
    insertUser(tx, t.outbox, tenantId, {
      email: `${lastName.toLowerCase()}.${Math.random().toString(36).slice(2)}@example.com`,
      firstName: "Test",
      lastName,
    }),
  );

beforeAll(async () => {
  t = await createTestApp();
  tenantA = await t.createTenant("A");
  tenantB = await t.createTenant("B");
  adminA = await t.createUser(tenantA.id, "admin");
  adminB = await t.createUser(tenantB.id, "admin");
  readerA = await t.createUser(tenantA.id, ["groups:read:all"]);
  memberA1 = await createMember(tenantA.id, "Zokirov");
  memberA2 = await createMember(tenantA.id, "Aliyeva");
  outsiderA = await t.createUser(tenantA.id, []);
  groupB = await createGroup(adminB, { userIds: [adminB.id] });
});

afterAll(async () => {
  await t?.close();
});

describe("POST /groups", () => {
  it("creates a group with roles and users, sorted", async () => {
    const name = uniqueName("Cashiers");
    const res = await call(adminA, "POST", "/groups", {
      name: ` ${name} `,
      description: "Front desk",
      roleIds: [tenantA.adminRoleId, tenantA.adminRoleId],
      userIds: [memberA2.id, memberA1.id, memberA2.id],
    });
    expect(res.statusCode).toBe(201);
    const body = res.json() as GroupDto;
    expect(body).toMatchObject({
      name,
      description: "Front desk",
      roles: [{ id: tenantA.adminRoleId, name: "admin" }],
    });
    expect(body.users.map((u) => u.id).sort()).toEqual([memberA1.id, memberA2.id].sort());
    expect(body.users.map((u) => u.lastName)).toEqual(["Aliyeva", "Zokirov"]);
    expect(body.users[0]).toEqual({
      id: expect.any(String),
      email: expect.any(String),
      firstName: "Test",
      lastName: expect.any(String),
    });
    expect(new Date(body.updatedAt).toISOString()).toBe(body.updatedAt);
  });

  it("treats another tenant's roles and users as unknown", async () => {
    const role = expectError(
      await call(adminA, "POST", "/groups", { name: uniqueName(), roleIds: [tenantB.adminRoleId] }),
      400,
      "VALIDATION_ERROR",
      "group.unknown_role",
    );
    expect(role.message).toContain(tenantB.adminRoleId);
    const user = expectError(
      await call(adminA, "POST", "/groups", { name: uniqueName(), userIds: [memberA1.id, adminB.id] }),
      400,
      "VALIDATION_ERROR",
      "group.unknown_user",
    );
    expect(user.message).toContain(adminB.id);
    expect(user.message).not.toContain(memberA1.id);
  });

  it("names the missing field and refuses bad input", async () => {
    const missing = expectError(
      await call(adminA, "POST", "/groups", { description: "x" }),
      400,
      "VALIDATION_ERROR",
    );
    expect(missing.message).toBe("validation error: name is required");
    expectFieldError(await call(adminA, "POST", "/groups", { name: "" }), "name");
    expectFieldError(await call(adminA, "POST", "/groups", { name: "g".repeat(101) }), "name");
    expectFieldError(
      await call(adminA, "POST", "/groups", { name: uniqueName(), description: "d".repeat(1001) }),
      "description",
    );
    expectFieldError(await call(adminA, "POST", "/groups", { name: ["array"] }), "name");
    expectFieldError(
      await call(adminA, "POST", "/groups", { name: uniqueName(), userIds: ["1 OR 1=1"] }),
      "userIds.0",
    );
    expectFieldError(
      await call(adminA, "POST", "/groups", { name: uniqueName(), roleIds: tenantA.adminRoleId }),
      "roleIds",
    );
    expectFieldError(
      await call(adminA, "POST", "/groups", { name: uniqueName(), tenantId: tenantB.id }),
      "tenantId",
    );
  });

  it("names are unique per tenant", async () => {
    const name = uniqueName();
    await createGroup(adminA, { name });
    expectError(await call(adminA, "POST", "/groups", { name }), 409, "CONFLICT", "group.name_taken");
    expect((await call(adminB, "POST", "/groups", { name })).statusCode).toBe(201);
  });

  it("stores a hostile name verbatim and harmlessly", async () => {
    const group = await createGroup(adminA, { name: HOSTILE, description: HOSTILE });
    expect(group).toMatchObject({ name: HOSTILE, description: HOSTILE });
    const found = await call(readerA, "GET", `/groups?name=${encodeURIComponent(HOSTILE)}`);
    expect(found.json()).toMatchObject({ total: 1, items: [{ id: group.id, name: HOSTILE }] });
    expect((await call(readerA, "GET", "/groups")).json().total).toBeGreaterThan(1);
  });

  it("401 without credentials, 403 without groups:create:all", async () => {
    expectError(await call(null, "POST", "/groups", { name: uniqueName() }), 401, "UNAUTHENTICATED");
    expectError(
      await call(readerA, "POST", "/groups", { name: uniqueName() }),
      403,
      "FORBIDDEN",
      "auth.forbidden",
    );
  });
});

describe("GET /groups", () => {
  it("pages, sorts and filters within the tenant only", async () => {
    const tag = uniqueName("Paging");
    for (const suffix of ["b", "a", "c"]) await createGroup(adminA, { name: `${tag}-${suffix}` });

    const page = await call(
      readerA,
      "GET",
      `/groups?name=${tag.toUpperCase()}&sortBy=name&order=desc&limit=2`,
    );
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(page.json().items.map((g: GroupDto) => g.name)).toEqual([`${tag}-c`, `${tag}-b`]);
    const next = await call(readerA, "GET", `/groups?name=${tag}&sortBy=name&order=desc&limit=2&offset=2`);
    expect(next.json().items.map((g: GroupDto) => g.name)).toEqual([`${tag}-a`]);
    const byDate = await call(readerA, "GET", `/groups?name=${tag}&sortBy=createdAt`);
    expect(byDate.json().items.map((g: GroupDto) => g.name)).toEqual([`${tag}-b`, `${tag}-a`, `${tag}-c`]);

    const all = await call(readerA, "GET", "/groups?limit=100");
    expect(all.json().items.map((g: GroupDto) => g.id)).not.toContain(groupB.id);
  });

  it("rejects bad paging and sorting", async () => {
    const res = await call(readerA, "GET", "/groups?limit=0&sortBy=users");
    expectError(res, 400, "VALIDATION_ERROR");
    expect(
      res
        .json()
        .error.issues.map((i: { path: string }) => i.path)
        .sort(),
    ).toEqual(["limit", "sortBy"]);
  });

  it("401 without credentials, 403 without groups:read:all", async () => {
    expectError(await call(null, "GET", "/groups"), 401, "UNAUTHENTICATED");
    expectError(await call(outsiderA, "GET", "/groups"), 403, "FORBIDDEN");
  });
});

describe("GET /groups/:id", () => {
  it("returns the group", async () => {
    const group = await createGroup(adminA, { userIds: [memberA1.id] });
    const res = await call(readerA, "GET", `/groups/${group.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(group);
  });

  it("another tenant's group and an unknown id are 404; a malformed id is 400", async () => {
    expectError(await call(adminA, "GET", `/groups/${groupB.id}`), 404, "NOT_FOUND", "group.not_found");
    expectError(await call(adminA, "GET", `/groups/${MISSING_ID}`), 404, "NOT_FOUND", "group.not_found");
    expectError(await call(adminA, "GET", `/groups/${encodeURIComponent(HOSTILE)}`), 400, "VALIDATION_ERROR");
  });

  it("401 without credentials, 403 without groups:read:all", async () => {
    expectError(await call(null, "GET", `/groups/${groupB.id}`), 401, "UNAUTHENTICATED");
    expectError(await call(outsiderA, "GET", `/groups/${MISSING_ID}`), 403, "FORBIDDEN");
  });
});

describe("PUT /groups/:id", () => {
  it("renames, describes and replaces roles, keeping members", async () => {
    const first = await createRole(adminA, ["payments:read:all"]);
    const second = await createRole(adminA, ["expenses:read:all"]);
    const group = await createGroup(adminA, { roleIds: [first.id], userIds: [memberA1.id] });
    const name = uniqueName("Renamed");
    const res = await call(adminA, "PUT", `/groups/${group.id}`, {
      name,
      description: "New",
      roleIds: [second.id],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: group.id, name, description: "New", roles: [second] });
    expect(res.json().users.map((u: { id: string }) => u.id)).toEqual([memberA1.id]);

    const kept = await call(adminA, "PUT", `/groups/${group.id}`, { description: "Only this" });
    expect(kept.json()).toMatchObject({ name, roles: [second] });
    expect((await call(adminA, "PUT", `/groups/${group.id}`, { roleIds: [] })).json().roles).toEqual([]);
  });

  it("refuses a taken name, unknown roles and fields it does not own", async () => {
    const first = await createGroup(adminA);
    const second = await createGroup(adminA);
    expectError(
      await call(adminA, "PUT", `/groups/${second.id}`, { name: first.name }),
      409,
      "CONFLICT",
      "group.name_taken",
    );
    expectError(
      await call(adminA, "PUT", `/groups/${second.id}`, { roleIds: [tenantB.adminRoleId] }),
      400,
      "VALIDATION_ERROR",
      "group.unknown_role",
    );
    // Membership changes go through /groups/:id/users.
    expectFieldError(
      await call(adminA, "PUT", `/groups/${second.id}`, { userIds: [memberA1.id] }),
      "userIds",
    );
    expect((await call(adminA, "GET", `/groups/${second.id}`)).json()).toMatchObject({
      name: second.name,
      roles: [],
    });
  });

  it("another tenant's group is 404; 401 without credentials; 403 without groups:update:all", async () => {
    expectError(
      await call(adminA, "PUT", `/groups/${groupB.id}`, { description: "x" }),
      404,
      "NOT_FOUND",
      "group.not_found",
    );
    expectError(
      await call(null, "PUT", `/groups/${groupB.id}`, { description: "x" }),
      401,
      "UNAUTHENTICATED",
    );
    expectError(await call(readerA, "PUT", `/groups/${MISSING_ID}`, { description: "x" }), 403, "FORBIDDEN");
  });
});

describe("DELETE /groups/:id", () => {
  it("deletes a group; its members keep their accounts", async () => {
    const group = await createGroup(adminA, { userIds: [memberA1.id] });
    expect((await call(adminA, "DELETE", `/groups/${group.id}`)).statusCode).toBe(204);
    expectError(await call(adminA, "GET", `/groups/${group.id}`), 404, "NOT_FOUND", "group.not_found");
    expectError(await call(adminA, "DELETE", `/groups/${group.id}`), 404, "NOT_FOUND", "group.not_found");
    expect((await call(adminA, "GET", `/users/${memberA1.id}`)).statusCode).toBe(200);
  });

  it("another tenant's group is 404; 401 without credentials; 403 without groups:delete:all", async () => {
    expectError(await call(adminA, "DELETE", `/groups/${groupB.id}`), 404, "NOT_FOUND");
    expectError(await call(null, "DELETE", `/groups/${groupB.id}`), 401, "UNAUTHENTICATED");
    expectError(await call(readerA, "DELETE", `/groups/${MISSING_ID}`), 403, "FORBIDDEN");
    expect((await call(adminB, "GET", `/groups/${groupB.id}`)).statusCode).toBe(200);
  });
});

describe("/groups/:id/users", () => {
  it("adds users idempotently and removes one", async () => {
    const group = await createGroup(adminA);
    const url = `/groups/${group.id}/users`;
    const added = await call(adminA, "POST", url, { userIds: [memberA1.id, memberA2.id] });
    expect(added.statusCode).toBe(200);
    expect(
      added
        .json()
        .users.map((u: { id: string }) => u.id)
        .sort(),
    ).toEqual([memberA1.id, memberA2.id].sort());
    const again = await call(adminA, "POST", url, { userIds: [memberA1.id] });
    expect(again.json().users).toHaveLength(2);

    const removed = await call(adminA, "DELETE", `${url}/${memberA1.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().users.map((u: { id: string }) => u.id)).toEqual([memberA2.id]);
    expectError(
      await call(adminA, "DELETE", `${url}/${memberA1.id}`),
      404,
      "NOT_FOUND",
      "group.user_not_member",
    );
  });

  it("refuses unknown, foreign, empty and malformed user lists", async () => {
    const group = await createGroup(adminA);
    const url = `/groups/${group.id}/users`;
    const foreign = expectError(
      await call(adminA, "POST", url, { userIds: [adminB.id] }),
      400,
      "VALIDATION_ERROR",
      "group.unknown_user",
    );
    expect(foreign.message).toContain(adminB.id);
    expectError(
      await call(adminA, "POST", url, { userIds: [MISSING_ID] }),
      400,
      "VALIDATION_ERROR",
      "group.unknown_user",
    );
    const missing = expectError(await call(adminA, "POST", url, {}), 400, "VALIDATION_ERROR");
    expect(missing.message).toBe("validation error: userIds is required");
    expectFieldError(await call(adminA, "POST", url, { userIds: [] }), "userIds");
    expectFieldError(await call(adminA, "POST", url, { userIds: [HOSTILE] }), "userIds.0");
    expectFieldError(await call(adminA, "POST", url, { userIds: [memberA1.id], roleIds: [] }), "roleIds");
    expectError(await call(adminA, "DELETE", `${url}/not-a-uuid`), 400, "VALIDATION_ERROR");
    expect((await call(adminA, "GET", `/groups/${group.id}`)).json().users).toEqual([]);
  });

  it("another tenant's group or user is 404; 401 without credentials; 403 without groups:update:all", async () => {
    const group = await createGroup(adminA, { userIds: [memberA1.id] });
    const foreign = `/groups/${groupB.id}/users`;
    expectError(
      await call(adminA, "POST", foreign, { userIds: [memberA1.id] }),
      404,
      "NOT_FOUND",
      "group.not_found",
    );
    expectError(await call(adminA, "DELETE", `${foreign}/${adminB.id}`), 404, "NOT_FOUND", "group.not_found");
    expectError(
      await call(adminA, "DELETE", `/groups/${group.id}/users/${adminB.id}`),
      404,
      "NOT_FOUND",
      "group.user_not_member",
    );
    expectError(
      await call(null, "POST", `/groups/${group.id}/users`, { userIds: [memberA2.id] }),
      401,
      "UNAUTHENTICATED",
    );
    expectError(
      await call(null, "DELETE", `/groups/${group.id}/users/${memberA1.id}`),
      401,
      "UNAUTHENTICATED",
    );
    expectError(
      await call(readerA, "POST", `/groups/${group.id}/users`, { userIds: [memberA2.id] }),
      403,
      "FORBIDDEN",
    );
    expectError(await call(readerA, "DELETE", `/groups/${group.id}/users/${memberA1.id}`), 403, "FORBIDDEN");
    expect((await call(adminB, "GET", `/groups/${groupB.id}`)).json().users).toHaveLength(1);
  });
});

describe("effective permissions through groups", () => {
  it("a user gains a group's role permissions on joining and loses them on leaving", async () => {
    const user = await t.createUser(tenantA.id, []);
    const role = await createRole(adminA, ["groups:read:all"]);
    const group = await createGroup(adminA, { roleIds: [role.id] });
    expectError(await call(user, "GET", "/groups"), 403, "FORBIDDEN");

    await call(adminA, "POST", `/groups/${group.id}/users`, { userIds: [user.id] });
    expect((await call(user, "GET", "/groups")).statusCode).toBe(200);
    expect((await call(adminA, "GET", `/users/${user.id}`)).json().permissions).toEqual(["groups:read:all"]);

    await call(adminA, "DELETE", `/groups/${group.id}/users/${user.id}`);
    expectError(await call(user, "GET", "/groups"), 403, "FORBIDDEN");
    expect((await call(adminA, "GET", `/users/${user.id}`)).json().permissions).toEqual([]);
  });

  it("taking the role from the group, or deleting the role, takes the permission away", async () => {
    const user = await t.createUser(tenantA.id, []);
    const role = await createRole(adminA, ["groups:read:all"]);
    const group = await createGroup(adminA, { roleIds: [role.id], userIds: [user.id] });
    expect((await call(user, "GET", `/groups/${group.id}`)).statusCode).toBe(200);

    await call(adminA, "PUT", `/groups/${group.id}`, { roleIds: [] });
    expectError(await call(user, "GET", `/groups/${group.id}`), 403, "FORBIDDEN");

    await call(adminA, "PUT", `/groups/${group.id}`, { roleIds: [role.id] });
    expect((await call(user, "GET", `/groups/${group.id}`)).statusCode).toBe(200);
    expect((await call(adminA, "DELETE", `/roles/${role.id}`)).statusCode).toBe(204);
    expect((await call(adminA, "GET", `/groups/${group.id}`)).json().roles).toEqual([]);
    expectError(await call(user, "GET", `/groups/${group.id}`), 403, "FORBIDDEN");
  });
});
