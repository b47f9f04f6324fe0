import type { TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, expectError, expectFieldError, MISSING_ID, unique } from "../../testing/finance-records";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * The CRM, Warehouse, Projects and HRM modules over REST and tRPC: routes derived from each module's
 * operation catalog over the record building block, the same services GraphQL calls. Happy paths, the
 * shared filter grammar as a query parameter, bad and hostile input, permissions and other tenants.
 */

let t: TestApp;
let tenantId: string;
let admin: SeededUser;
let reader: SeededUser;
let outsider: SeededUser;
let otherAdmin: SeededUser;
const call = caller(() => t);

const contextOf = async (user: SeededUser) =>
  (await t.services.context.resolveContext({ bearerToken: user.token, requestId: "seed" })) as TenantContext;

const created = async (who: SeededUser, url: string, body: Record<string, unknown>) => {
  const res = await call(who, "POST", url, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string } & Record<string, unknown>;
};

const filtersParam = (filters: unknown) => `filters=${encodeURIComponent(JSON.stringify(filters))}`;

const trpc = (who: SeededUser | null, method: "GET" | "POST", procedure: string, input: unknown) =>
  t.app.inject({
    method,
    url:
      method === "POST" || input === undefined
        ? `/trpc/${procedure}`
        : `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`,
    headers: {
      ...(who ? who.headers : {}),
      ...(method === "POST" ? { "content-type": "application/json" } : {}),
    },
    ...(method === "POST" ? { payload: JSON.stringify(input) } : {}),
  });

beforeAll(async () => {
  t = await createTestApp();
  tenantId = (await t.createTenant()).id;
  const otherTenantId = (await t.createTenant()).id;
  admin = await t.createUser(tenantId, "admin");
  reader = await t.createUser(tenantId, ["clients:read:all", "employees:read:all"]);
  outsider = await t.createUser(tenantId, []);
  otherAdmin = await t.createUser(otherTenantId, "admin");
  await t.services.currencies.setSelected(await contextOf(admin), { codes: ["UZS", "USD"] });
  await t.services.currencies.setSelected(await contextOf(otherAdmin), { codes: ["UZS"] });
});

afterAll(async () => {
  await t?.close();
});

describe("CRM over REST", () => {
  it("creates, reads, lists with sort and filters, changes and deletes a client", async () => {
    const client = await created(admin, "/crm/clients", {
      kind: "company",
      name: "  Orzu Savdo MChJ ",
      phone: "+998 90 123-45-67",
      tin: "301234567",
    });
    expect(client).toMatchObject({ kind: "company", name: "Orzu Savdo MChJ", counterpartyId: null });
    await created(admin, "/crm/clients", { name: "Aziz Karimov" });
    const read = await call(admin, "GET", `/crm/clients/${client.id}`);
    expect(read.json()).toEqual(client);

    const sorted = await call(admin, "GET", "/crm/clients?sortBy=name&order=desc&limit=1");
    expect(sorted.statusCode, sorted.body).toBe(200);
    expect(sorted.json()).toMatchObject({
      total: 2,
      limit: 1,
      offset: 0,
      items: [{ name: "Orzu Savdo MChJ" }],
    });

    const filtered = await call(
      admin,
      "GET",
      `/crm/clients?${filtersParam([{ field: "name", operator: "like", value: "orzu" }])}`,
    );
    expect(filtered.json()).toMatchObject({ total: 1, items: [{ id: client.id }] });

    const changed = await call(admin, "PUT", `/crm/clients/${client.id}`, { notes: "Pays on the 5th" });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id: client.id, notes: "Pays on the 5th", tin: "301234567" });

    const removed = await call(admin, "DELETE", `/crm/clients/${client.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expectError(
      await call(admin, "GET", `/crm/clients/${client.id}`),
      404,
      "NOT_FOUND",
      "crm.client_not_found",
    );
  });

  it("refuses malformed, unknown and oversized filters, unknown sort fields and bad bodies with 400", async () => {
    expectFieldError(await call(admin, "GET", "/crm/clients?filters=%7Bnot-json"), "filters");
    expectFieldError(await call(admin, "GET", `/crm/clients?${filtersParam({ field: "name" })}`), "filters");
    const unknownField = await call(
      admin,
      "GET",
      `/crm/clients?${filtersParam([{ field: "passwordHash", operator: "eq", value: "x" }])}`,
    );
    expect(expectFieldError(unknownField, "filters.0.field").message).toContain("passwordHash");
    const tooMany = Array.from({ length: 21 }, () => ({ field: "name", operator: "eq", value: "x" }));
    expectFieldError(await call(admin, "GET", `/crm/clients?${filtersParam(tooMany)}`), "filters");
    expectFieldError(await call(admin, "GET", `/crm/clients?filters=${"a".repeat(5000)}`), "filters");
    expectFieldError(await call(admin, "GET", "/crm/clients?sortBy=passwordHash"), "sortBy");
    expectFieldError(await call(admin, "GET", "/crm/clients?limit=1000"), "limit");
    expectFieldError(await call(admin, "POST", "/crm/clients", { name: "" }), "name");
    expectFieldError(await call(admin, "POST", "/crm/clients", { name: "a\u0000b" }), "name");
    expectFieldError(await call(admin, "POST", "/crm/clients", { name: "X", isAdmin: true }), "isAdmin");
    expectFieldError(await call(admin, "POST", "/crm/clients", { name: "x".repeat(201) }), "name");
    expectFieldError(await call(admin, "GET", "/crm/clients/not-a-uuid"), "id");
  });

  it("answers 401 without credentials, 403 without the permission, 404 for another organization's ids", async () => {
    expectError(await call(null, "GET", "/crm/clients"), 401, "UNAUTHENTICATED");
    expectError(await call(outsider, "GET", "/crm/clients"), 403, "FORBIDDEN");
    expectError(await call(reader, "POST", "/crm/clients", { name: "Not allowed" }), 403, "FORBIDDEN");
    const theirs = await created(otherAdmin, "/crm/clients", { name: "Their client" });
    expectError(await call(admin, "GET", `/crm/clients/${theirs.id}`), 404, "NOT_FOUND");
    expectError(await call(admin, "PUT", `/crm/clients/${theirs.id}`, { notes: "x" }), 404, "NOT_FOUND");
    expectError(await call(admin, "DELETE", `/crm/clients/${theirs.id}`), 404, "NOT_FOUND");
    // As a reference inside the input: a chat with another organization's client.
    expectError(
      await call(admin, "POST", "/crm/chats", { clientId: theirs.id, channel: "phone" }),
      404,
      "NOT_FOUND",
    );
    expect((await call(otherAdmin, "GET", `/crm/clients/${theirs.id}`)).statusCode).toBe(200);
  });

  it("opens a chat, posts and lists its messages, refuses a message in a closed chat", async () => {
    const client = await created(admin, "/crm/clients", { name: unique("Client") });
    const chat = await created(admin, "/crm/chats", { clientId: client.id, channel: "telegram" });
    const first = await created(admin, `/crm/chats/${chat.id}/messages`, { body: "Salom!" });
    expect(first).toMatchObject({ chatId: chat.id, direction: "outbound", body: "Salom!" });
    await created(admin, `/crm/chats/${chat.id}/messages`, { direction: "inbound", body: "Va alaykum" });
    const messages = await call(admin, "GET", `/crm/chats/${chat.id}/messages?limit=10`);
    expect(messages.statusCode, messages.body).toBe(200);
    expect(messages.json()).toMatchObject({ total: 2, items: [{ body: "Salom!" }, { body: "Va alaykum" }] });
    expectFieldError(await call(admin, "POST", `/crm/chats/${chat.id}/messages`, { body: "" }), "body");
    expectFieldError(await call(admin, "GET", `/crm/chats/${chat.id}/messages?limit=abc`), "limit");
    expectError(
      await call(admin, "POST", `/crm/chats/${MISSING_ID}/messages`, { body: "x" }),
      404,
      "NOT_FOUND",
    );
    await call(admin, "PUT", `/crm/chats/${chat.id}`, { status: "closed" });
    const refused = await call(admin, "POST", `/crm/chats/${chat.id}/messages`, { body: "Late" });
    expect(refused.statusCode, refused.body).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
  });
});

describe("Warehouse over REST", () => {
  it("takes a product through stock and an order: adjust, confirm, fulfil, refuse below zero", async () => {
    const product = await created(admin, "/warehouse/products", {
      sku: unique("SKU").replace(/ /g, "-"),
      name: "Choy 250 g",
      price: "15000",
      currency: "UZS",
    });
    const location = await created(admin, "/warehouse/locations", {
      code: unique("L").replace(/ /g, "-"),
      name: "Main",
    });
    const adjusted = await created(admin, "/warehouse/stock/adjustments", {
      productId: product.id,
      locationId: location.id,
      change: "5",
      reason: "Stocktake",
    });
    expect(adjusted).toMatchObject({ productId: product.id, quantity: "5" });

    const order = await created(admin, "/warehouse/orders", {
      kind: "sales",
      locationId: location.id,
      currency: "UZS",
      date: "2026-11-25",
      lines: [{ productId: product.id, quantity: "3" }],
    });
    expect(order).toMatchObject({ status: "draft", total: "45000" });
    const confirmed = await call(admin, "POST", `/warehouse/orders/${order.id}/confirm`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ status: "confirmed" });
    expect((await call(admin, "POST", `/warehouse/orders/${order.id}/fulfil`)).json()).toMatchObject({
      status: "fulfilled",
    });
    expectError(await call(admin, "POST", `/warehouse/orders/${order.id}/cancel`), 422, "BUSINESS_RULE");

    const stock = await call(
      admin,
      "GET",
      `/warehouse/stock?inStock=true&${filtersParam([{ field: "productId", operator: "eq", value: product.id }])}`,
    );
    expect(stock.statusCode, stock.body).toBe(200);
    expect(stock.json()).toMatchObject({ total: 1, items: [{ quantity: "2" }] });

    const tooMuch = await created(admin, "/warehouse/orders", {
      kind: "sales",
      locationId: location.id,
      currency: "UZS",
      date: "2026-11-25",
      lines: [{ productId: product.id, quantity: "3" }],
    });
    await call(admin, "POST", `/warehouse/orders/${tooMuch.id}/confirm`);
    expectError(
      await call(admin, "POST", `/warehouse/orders/${tooMuch.id}/fulfil`),
      422,
      "BUSINESS_RULE",
      "warehouse.insufficient_stock",
    );
    expectFieldError(await call(admin, "GET", "/warehouse/stock?inStock=maybe"), "inStock");
    expectFieldError(
      await call(admin, "POST", "/warehouse/stock/adjustments", {
        productId: product.id,
        locationId: location.id,
        change: "1e9",
        reason: "x",
      }),
      "change",
    );
    expectError(await call(reader, "POST", `/warehouse/orders/${order.id}/fulfil`), 403, "FORBIDDEN");
    expectError(await call(otherAdmin, "POST", `/warehouse/orders/${order.id}/confirm`), 404, "NOT_FOUND");
  });
});

describe("Projects over REST", () => {
  it("creates a project, adds, reorders, changes and removes its stages", async () => {
    const project = await created(admin, "/projects", {
      name: "Annual audit 2026",
      currency: "UZS",
      budget: "500000",
    });
    const design = await created(admin, `/projects/${project.id}/stages`, { name: "Plan" });
    const fieldwork = await created(admin, `/projects/${project.id}/stages`, { name: "Fieldwork" });
    const report = await created(admin, `/projects/${project.id}/stages`, { name: "Report", position: 0 });
    const listed = await call(admin, "GET", `/projects/${project.id}/stages`);
    expect(listed.json().map((stage: { name: string }) => stage.name)).toEqual([
      "Report",
      "Plan",
      "Fieldwork",
    ]);

    const reordered = await call(admin, "PUT", `/projects/${project.id}/stages/order`, {
      stageIds: [design.id, fieldwork.id, report.id],
    });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(
      reordered.json().map((stage: { name: string; position: number }) => [stage.name, stage.position]),
    ).toEqual([
      ["Plan", 0],
      ["Fieldwork", 1],
      ["Report", 2],
    ]);
    const done = await call(admin, "PUT", `/projects/stages/${design.id}`, { done: true });
    expect(done.json()).toMatchObject({ id: design.id, done: true });
    expect((await call(admin, "DELETE", `/projects/stages/${fieldwork.id}`)).statusCode).toBe(204);
    expect((await call(admin, "GET", `/projects/${project.id}/stages`)).json()).toHaveLength(2);

    expectFieldError(
      await call(admin, "PUT", `/projects/${project.id}/stages/order`, { stageIds: [] }),
      "stageIds",
    );
    expectFieldError(
      await call(admin, "POST", "/projects", {
        name: "Bad",
        currency: "UZS",
        startDate: "2026-02-01",
        endDate: "2026-01-01",
      }),
      "endDate",
    );
    expectError(await call(otherAdmin, "GET", `/projects/${project.id}/stages`), 404, "NOT_FOUND");
    expectError(
      await call(otherAdmin, "PUT", `/projects/stages/${design.id}`, { done: false }),
      404,
      "NOT_FOUND",
    );
    expectError(await call(outsider, "GET", "/projects"), 403, "FORBIDDEN");
  });
});

describe("HRM over REST", () => {
  it("shows an employee's salary only to callers who may read salaries", async () => {
    const employee = await created(admin, "/hrm/employees", {
      firstName: "Dilnoza",
      lastName: "Rahimova",
      hireDate: "2024-03-01",
      salary: "1200000000",
      salaryCurrency: "UZS",
    });
    expect(employee).toMatchObject({ salary: "1200000000", salaryCurrency: "UZS" });
    expect((await call(reader, "GET", `/hrm/employees/${employee.id}`)).json()).toMatchObject({
      salary: null,
      salaryCurrency: null,
    });
    const list = await call(reader, "GET", "/hrm/employees?sortBy=lastName&sortBy=firstName");
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items[0]).toMatchObject({ lastName: "Rahimova", salary: null });
    expectFieldError(
      await call(admin, "POST", "/hrm/employees", { firstName: "A", lastName: "B", hireDate: "2024-02-30" }),
      "hireDate",
    );
    expectError(
      await call(reader, "PUT", `/hrm/employees/${employee.id}`, { salary: "1", salaryCurrency: "UZS" }),
      403,
      "FORBIDDEN",
    );
  });
});

describe("over tRPC", () => {
  it("the modules' procedures call the same services, with the filter grammar as an array", async () => {
    const made = await trpc(admin, "POST", "crm.clients.create", { name: "Via tRPC" });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().result.data.id as string;
    const listed = await trpc(admin, "GET", "crm.clients.list", {
      filters: [{ field: "name", operator: "eq", value: "Via tRPC" }],
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().result.data).toMatchObject({ total: 1, items: [{ id }] });
    const projects = await trpc(admin, "GET", "projects.projects.list", undefined);
    expect(projects.statusCode, projects.body).toBe(200);
    const refused = await trpc(outsider, "GET", "hrm.employees.list", {});
    expect(refused.statusCode).toBe(403);
    const bad = await trpc(admin, "GET", "crm.clients.list", {
      filters: [{ field: "nope", operator: "eq" }],
    });
    expect(bad.statusCode).toBe(400);
  });
});
