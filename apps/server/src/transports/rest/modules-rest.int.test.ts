import type { TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, expectError, expectFieldError, MISSING_ID, unique } from "../../testing/finance-records";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * The CRM, Warehouse, Projects and HRM modules over REST and tRPC: routes derived from each module's
 * operation catalog over the record building block, the same services GraphQL calls. What the
 * transport decides: statuses, the query string (the shared filter grammar as JSON), path ids, 401,
 * each route's permission and other tenants' ids. The modules' rules are tested beside them, through
 * their services (packages/crm/src/clients, packages/warehouse/src/orders, packages/projects/src/stages,
 * packages/hrm/src/employees; docs/decisions/0107-a-codebase-a-newcomer-can-carry-on.md).
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
  it("answers each client route with its status and the service's record", async () => {
    const client = await created(admin, "/crm/clients", { kind: "company", name: "  Orzu Savdo MChJ " });
    expect(client).toMatchObject({ kind: "company", name: "Orzu Savdo MChJ" });
    const read = await call(admin, "GET", `/crm/clients/${client.id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual(client);
    const changed = await call(admin, "PUT", `/crm/clients/${client.id}`, { notes: "Pays on the 5th" });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id: client.id, notes: "Pays on the 5th" });
    const removed = await call(admin, "DELETE", `/crm/clients/${client.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expectError(
      await call(admin, "GET", `/crm/clients/${client.id}`),
      404,
      "NOT_FOUND",
      "crm.client_not_found",
    );
  });

  it("reads the list's query string: sort, order, limit and the filter grammar as JSON; refuses what it cannot read with 400", async () => {
    await created(admin, "/crm/clients", { name: "Zarina Query" });
    await created(admin, "/crm/clients", { name: "Anvar Query" });
    const sorted = await call(
      admin,
      "GET",
      `/crm/clients?sortBy=name&order=desc&limit=1&${filtersParam([{ field: "name", operator: "like", value: "query" }])}`,
    );
    expect(sorted.statusCode, sorted.body).toBe(200);
    expect(sorted.json()).toMatchObject({ total: 2, limit: 1, offset: 0, items: [{ name: "Zarina Query" }] });
    expectFieldError(await call(admin, "GET", "/crm/clients?filters=%7Bnot-json"), "filters");
    expectFieldError(await call(admin, "GET", `/crm/clients?${filtersParam({ field: "name" })}`), "filters");
    expectFieldError(await call(admin, "GET", `/crm/clients?filters=${"a".repeat(5000)}`), "filters");
    expectFieldError(await call(admin, "GET", "/crm/clients?sortBy=passwordHash"), "sortBy");
    expectFieldError(await call(admin, "GET", "/crm/clients?limit=1000"), "limit");
    expectFieldError(await call(admin, "POST", "/crm/clients", { name: "X", isAdmin: true }), "isAdmin");
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

  it("a chat's messages over their routes: 201, the list's query string, 404 for a missing chat, 422 when closed", async () => {
    const client = await created(admin, "/crm/clients", { name: unique("Client") });
    const chat = await created(admin, "/crm/chats", { clientId: client.id, channel: "telegram" });
    await created(admin, `/crm/chats/${chat.id}/messages`, { body: "Salom!" });
    const messages = await call(admin, "GET", `/crm/chats/${chat.id}/messages?limit=10`);
    expect(messages.statusCode, messages.body).toBe(200);
    expect(messages.json()).toMatchObject({ total: 1, items: [{ body: "Salom!" }] });
    expectFieldError(await call(admin, "GET", `/crm/chats/${chat.id}/messages?limit=abc`), "limit");
    expectError(
      await call(admin, "POST", `/crm/chats/${MISSING_ID}/messages`, { body: "x" }),
      404,
      "NOT_FOUND",
    );
    await call(admin, "PUT", `/crm/chats/${chat.id}`, { status: "closed" });
    expectError(
      await call(admin, "POST", `/crm/chats/${chat.id}/messages`, { body: "Late" }),
      422,
      "BUSINESS_RULE",
      "crm.chat_closed",
    );
  });
});

describe("Warehouse over REST", () => {
  it("an order's actions as POSTs, the stock's query string, 422 below zero, 403 and another organization's 404", async () => {
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
    await created(admin, "/warehouse/stock/adjustments", {
      productId: product.id,
      locationId: location.id,
      change: "2",
      reason: "Stocktake",
    });
    const order = await created(admin, "/warehouse/orders", {
      kind: "sales",
      locationId: location.id,
      currency: "UZS",
      date: "2026-11-25",
      lines: [{ productId: product.id, quantity: "3" }],
    });
    const confirmed = await call(admin, "POST", `/warehouse/orders/${order.id}/confirm`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ status: "confirmed" });
    expectError(
      await call(admin, "POST", `/warehouse/orders/${order.id}/fulfil`),
      422,
      "BUSINESS_RULE",
      "warehouse.insufficient_stock",
    );
    const stock = await call(
      admin,
      "GET",
      `/warehouse/stock?inStock=true&${filtersParam([{ field: "productId", operator: "eq", value: product.id }])}`,
    );
    expect(stock.statusCode, stock.body).toBe(200);
    expect(stock.json()).toMatchObject({ total: 1, items: [{ quantity: "2" }] });
    expectFieldError(await call(admin, "GET", "/warehouse/stock?inStock=maybe"), "inStock");
    expectError(await call(reader, "POST", `/warehouse/orders/${order.id}/fulfil`), 403, "FORBIDDEN");
    expectError(await call(otherAdmin, "POST", `/warehouse/orders/${order.id}/confirm`), 404, "NOT_FOUND");
  });
});

describe("Projects over REST", () => {
  it("a project's stages under its path, the order as a PUT, 400, 403 and another organization's 404", async () => {
    const project = await created(admin, "/projects", { name: "Annual audit 2026", currency: "UZS" });
    const plan = await created(admin, `/projects/${project.id}/stages`, { name: "Plan" });
    const report = await created(admin, `/projects/${project.id}/stages`, { name: "Report", position: 0 });
    const reordered = await call(admin, "PUT", `/projects/${project.id}/stages/order`, {
      stageIds: [plan.id, report.id],
    });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(reordered.json().map((stage: { name: string }) => stage.name)).toEqual(["Plan", "Report"]);
    const done = await call(admin, "PUT", `/projects/stages/${plan.id}`, { done: true });
    expect(done.json()).toMatchObject({ id: plan.id, done: true });
    expect((await call(admin, "DELETE", `/projects/stages/${report.id}`)).statusCode).toBe(204);
    expect((await call(admin, "GET", `/projects/${project.id}/stages`)).json()).toHaveLength(1);
    expectFieldError(
      await call(admin, "PUT", `/projects/${project.id}/stages/order`, { stageIds: [] }),
      "stageIds",
    );
    expectError(await call(otherAdmin, "GET", `/projects/${project.id}/stages`), 404, "NOT_FOUND");
    expectError(
      await call(otherAdmin, "PUT", `/projects/stages/${plan.id}`, { done: false }),
      404,
      "NOT_FOUND",
    );
    expectError(await call(outsider, "GET", "/projects"), 403, "FORBIDDEN");
  });
});

describe("HRM over REST", () => {
  it("the salary hidden from a reader on both reads, the sort repeated in the query string, 400 and 403", async () => {
    const employee = await created(admin, "/hrm/employees", {
      firstName: "Dilnoza",
      lastName: "Rahimova",
      hireDate: "2024-03-01",
      salary: "1200000000",
      salaryCurrency: "UZS",
    });
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
