import type { AppRouter } from "@hisob/trpc";
import { createTRPCClient, httpLink } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "./testing/test-app";
import { gql, listen } from "./transports/graphql/graphql-test-kit";

/*
 * Every write that changes money, salaries or stock, and every deletion, leaves an audit entry in its
 * own transaction, whichever transport made it (REST, GraphQL, tRPC). Each case failed before: the
 * records building block (CRM, Warehouse, Projects, HRM, counterparties), order transitions, stock
 * adjustments, stages, uploads, inventory and opening balances wrote none.
 */

let t: TestApp;
let graphqlUrl: string;
let base: string;
let tenantId: string;
let admin: SeededUser;
let auditor: SeededUser;

type Entry = {
  entity: string;
  entityId: string | null;
  action: string;
  userId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

const rest = async (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) => {
  const res = await t.app.inject({
    method,
    url,
    headers: admin.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.body ? res.json() : null;
};

const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
  const res = await gql(graphqlUrl, query, { variables, headers: admin.headers });
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data as Record<string, unknown>;
};

const trpc = () =>
  createTRPCClient<AppRouter>({ links: [httpLink({ url: `${base}/trpc`, headers: admin.headers })] });

const entries = async (entity: string, entityId: string, reader = admin): Promise<Entry[]> => {
  const res = await t.app.inject({
    method: "GET",
    url: `/audit?entity=${entity}&entityId=${entityId}&limit=100&order=asc`,
    headers: reader.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items;
};

const actions = async (entity: string, entityId: string) =>
  (await entries(entity, entityId)).map((entry) => entry.action);

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++sequence}`;

const product = () =>
  rest("POST", "/warehouse/products", { sku: unique("SKU"), name: "Choy", price: "15000", currency: "UZS" });
const location = () => rest("POST", "/warehouse/locations", { code: unique("L"), name: "Main" });

beforeAll(async () => {
  t = await createTestApp();
  graphqlUrl = (await listen(t)).httpUrl;
  base = graphqlUrl.replace("/api/graphql", "");
  tenantId = (await t.createTenant("Audited")).id;
  admin = await t.createUser(tenantId, "admin");
  // Reads the log and the employees, not their salaries.
  auditor = await t.createUser(tenantId, ["audit:read:all", "employees:read:all"]);
  await rest("PUT", "/tenant/currencies", { codes: ["UZS", "USD"] });
});

afterAll(async () => {
  await t?.close();
});

describe("salaries", () => {
  it("a salary change is audited with both amounts, over REST and GraphQL; a reader who may not see salaries sees only that it changed", async () => {
    const employee = await rest("POST", "/hrm/employees", {
      firstName: "Dilnoza",
      lastName: "Karimova",
      hireDate: "2024-03-01",
      salary: "5000000",
      salaryCurrency: "UZS",
    });
    await rest("PUT", `/hrm/employees/${employee.id}`, { salary: "6000000", salaryCurrency: "UZS" });
    await graphql(
      `mutation($id: ID!) { updateEmployee(id: $id, input: { salary: "7000000", salaryCurrency: "UZS" }) { id } }`,
      {
        id: employee.id,
      },
    );
    const log = await entries("employee", employee.id);
    expect(log.map((entry) => [entry.action, entry.before?.salary ?? null, entry.after?.salary])).toEqual([
      ["create", null, "5000000"],
      ["update", "5000000", "6000000"],
      ["update", "6000000", "7000000"],
    ]);
    expect(log.every((entry) => entry.userId === admin.id)).toBe(true);
    const masked = await entries("employee", employee.id, auditor);
    expect(masked.map((entry) => [entry.before?.salary ?? null, entry.after?.salary])).toEqual([
      [null, "•••"],
      ["•••", "•••"],
      ["•••", "•••"],
    ]);
    expect(masked[0]?.after).toMatchObject({ firstName: "Dilnoza", salaryCurrency: "•••" });
  });
});

describe("deletions, on every transport", () => {
  type Case = {
    entity: string;
    create: () => Promise<{ id: string }>;
    restPath: string;
    graphqlMutation?: string;
  };
  const cases: Case[] = [
    {
      entity: "employee",
      create: () => rest("POST", "/hrm/employees", { firstName: "A", lastName: "B", hireDate: "2024-01-01" }),
      restPath: "/hrm/employees",
      graphqlMutation: "deleteEmployee",
    },
    {
      entity: "crm_client",
      create: () => rest("POST", "/crm/clients", { name: unique("Client") }),
      restPath: "/crm/clients",
      graphqlMutation: "deleteClient",
    },
    {
      entity: "warehouse_product",
      create: product,
      restPath: "/warehouse/products",
      graphqlMutation: "deleteProduct",
    },
    {
      entity: "warehouse_location",
      create: location,
      restPath: "/warehouse/locations",
      graphqlMutation: "deleteLocation",
    },
    {
      entity: "project",
      create: () =>
        rest("POST", "/projects", { name: unique("Project"), currency: "UZS", budget: "100000000" }),
      restPath: "/projects",
      graphqlMutation: "deleteProject",
    },
    {
      entity: "counterparty",
      create: () => rest("POST", "/finance/counterparties", { name: unique("Counterparty") }),
      restPath: "/finance/counterparties",
    },
  ];

  it.each(
    cases,
  )("$entity: REST DELETE and the GraphQL mutation each leave a delete entry with the record as it was", async (each) => {
    const viaRest = await each.create();
    await rest("DELETE", `${each.restPath}/${viaRest.id}`);
    const restLog = await entries(each.entity, viaRest.id);
    expect(restLog.map((entry) => entry.action)).toEqual(["create", "delete"]);
    expect(restLog[1]?.before).toMatchObject({ id: viaRest.id });
    expect(restLog[1]?.after).toBeNull();
    if (each.graphqlMutation) {
      const viaGraphql = await each.create();
      const data = await graphql(`mutation($id: ID!) { ${each.graphqlMutation}(id: $id) }`, {
        id: viaGraphql.id,
      });
      expect(data[each.graphqlMutation]).toBe(true);
      expect(await actions(each.entity, viaGraphql.id)).toEqual(["create", "delete"]);
    }
  });

  it("counterparty: tRPC's delete is audited too", async () => {
    const counterparty = await trpc().counterparties.create.mutate({ name: unique("Via tRPC") });
    await trpc().counterparties.delete.mutate({ id: counterparty.id });
    expect(await actions("counterparty", counterparty.id)).toEqual(["create", "delete"]);
  });

  it("an upload: stored and deleted, both audited", async () => {
    const boundary = "----hisobaudit";
    const payload = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="note.txt"\r\n` +
        `Content-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`,
    );
    const res = await t.app.inject({
      method: "POST",
      url: "/uploads",
      payload,
      headers: { ...admin.headers, "content-type": `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [uploaded] = res.json().items as Array<{ id: string }>;
    if (!uploaded) throw new Error("no upload");
    await rest("DELETE", `/uploads/${uploaded.id}`);
    const log = await entries("upload", uploaded.id);
    expect(log.map((entry) => entry.action)).toEqual(["create", "delete"]);
    expect(log[1]?.before).toMatchObject({ name: "note.txt", size: 5 });
  });

  it("a project's stage: added, changed and deleted, each audited", async () => {
    const project = await rest("POST", "/projects", { name: unique("Staged"), currency: "UZS" });
    const stage = await rest("POST", `/projects/${project.id}/stages`, { name: "Design" });
    await rest("PUT", `/projects/stages/${stage.id}`, { done: true });
    await graphql(`mutation($id: ID!) { deleteStage(id: $id) }`, { id: stage.id });
    const log = await entries("project_stage", stage.id);
    expect(log.map((entry) => [entry.action, entry.after])).toEqual([
      ["create", expect.objectContaining({ name: "Design" })],
      ["update", { done: true }],
      ["delete", null],
    ]);
  });

  it("a refused deletion leaves no entry: it rolled back with the change", async () => {
    const client = await rest("POST", "/crm/clients", { name: unique("Busy") });
    await rest("POST", "/crm/chats", { clientId: client.id, channel: "phone" });
    const refused = await t.app.inject({
      method: "DELETE",
      url: `/crm/clients/${client.id}`,
      headers: admin.headers,
    });
    expect(refused.statusCode).toBe(409);
    expect(await actions("crm_client", client.id)).toEqual(["create"]);
  });
});

describe("stock", () => {
  it("a stock adjustment is audited over REST and GraphQL, with the change, the quantity after and the reason", async () => {
    const item = await product();
    const where = await location();
    await rest("POST", "/warehouse/stock/adjustments", {
      productId: item.id,
      locationId: where.id,
      change: "5",
      reason: "Stocktake",
    });
    await graphql(
      `mutation($input: InventoryAdjustmentInput!) { adjustInventory(input: $input) { quantity } }`,
      { input: { productId: item.id, locationId: where.id, change: "-2", reason: "Broken" } },
    );
    const log = await entries("warehouse_stock", `${item.id}:${where.id}`);
    expect(log.map((entry) => [entry.action, entry.after])).toEqual([
      [
        "adjust",
        { productId: item.id, locationId: where.id, change: "5", quantity: "5", reason: "Stocktake" },
      ],
      ["adjust", { productId: item.id, locationId: where.id, change: "-2", quantity: "3", reason: "Broken" }],
    ]);
    // Refused below zero: nothing recorded.
    const refused = await t.app.inject({
      method: "POST",
      url: "/warehouse/stock/adjustments",
      headers: admin.headers,
      payload: { productId: item.id, locationId: where.id, change: "-10", reason: "Lost" },
    });
    expect(refused.statusCode).toBe(422);
    expect(await entries("warehouse_stock", `${item.id}:${where.id}`)).toHaveLength(2);
  });

  it("an order's life is audited, and the stock its fulfilment moved (REST and GraphQL); a refused fulfilment leaves none", async () => {
    const item = await product();
    const where = await location();
    await rest("POST", "/warehouse/stock/adjustments", {
      productId: item.id,
      locationId: where.id,
      change: "10",
      reason: "Stocktake",
    });
    const order = (quantity: string) =>
      rest("POST", "/warehouse/orders", {
        kind: "sales",
        locationId: where.id,
        currency: "UZS",
        date: "2026-11-25",
        lines: [{ productId: item.id, quantity }],
      });
    const viaRest = await order("3");
    await rest("POST", `/warehouse/orders/${viaRest.id}/confirm`);
    await rest("POST", `/warehouse/orders/${viaRest.id}/fulfil`);
    const log = await entries("warehouse_order", viaRest.id);
    expect(log.map((entry) => entry.action)).toEqual(["create", "confirm", "fulfil"]);
    expect(log[2]?.before).toMatchObject({ status: "confirmed" });
    expect(log[2]?.after).toMatchObject({ status: "fulfilled" });
    // The stock's own history says which order moved it, by how much, and what was left.
    const stock = await entries("warehouse_stock", `${item.id}:${where.id}`);
    expect(stock.map((entry) => [entry.action, entry.after?.change, entry.after?.quantity])).toEqual([
      ["adjust", "10", "10"],
      ["fulfil", "-3", "7"],
    ]);
    expect(stock[1]?.after?.orderId).toBe(viaRest.id);

    const viaGraphql = await order("4");
    await graphql(`mutation($id: ID!) { confirmOrder(id: $id) { id } }`, { id: viaGraphql.id });
    await graphql(`mutation($id: ID!) { fulfilOrder(id: $id) { status } }`, { id: viaGraphql.id });
    expect(await actions("warehouse_order", viaGraphql.id)).toEqual(["create", "confirm", "fulfil"]);

    const tooMuch = await order("100");
    await rest("POST", `/warehouse/orders/${tooMuch.id}/confirm`);
    const refused = await t.app.inject({
      method: "POST",
      url: `/warehouse/orders/${tooMuch.id}/fulfil`,
      headers: admin.headers,
    });
    expect(refused.statusCode).toBe(422);
    expect(await actions("warehouse_order", tooMuch.id)).toEqual(["create", "confirm"]);
    await rest("POST", `/warehouse/orders/${tooMuch.id}/cancel`);
    await rest("DELETE", `/warehouse/orders/${tooMuch.id}`);
    expect(await actions("warehouse_order", tooMuch.id)).toEqual(["create", "confirm", "cancel", "delete"]);
  });

  it("finance inventory: an item's movements and its deletion are audited (REST and tRPC)", async () => {
    const item = await rest("POST", "/finance/inventory", {
      name: "Paper",
      sku: unique("INV"),
      unit: "pack",
      unitPrice: "30000",
      currency: "UZS",
      quantity: "4",
    });
    await trpc().inventory.recordMovement.mutate({
      id: item.id,
      data: { type: "issue", quantity: "4", date: "2026-11-25", comment: "Used up" },
    });
    await rest("DELETE", `/finance/inventory/${item.id}`);
    const log = await entries("inventory_item", item.id);
    expect(log.map((entry) => [entry.action, entry.after?.quantity ?? null])).toEqual([
      ["create", "0"],
      ["move", "4"],
      ["move", "-4"],
      ["delete", null],
    ]);
  });
});

describe("money", () => {
  it("an account's opening balance, set, changed and removed, is audited with the amounts", async () => {
    const account = await rest("POST", "/finance/accounts", { name: unique("Till"), currency: "UZS" });
    await rest("PUT", `/finance/accounts/${account.id}/opening-balance`, {
      amount: "100000",
      date: "2026-01-01",
    });
    await rest("PUT", `/finance/accounts/${account.id}/opening-balance`, {
      amount: "150000",
      date: "2026-01-01",
    });
    await rest("PUT", `/finance/accounts/${account.id}/opening-balance`, { amount: "0", date: "2026-01-01" });
    const log = (await entries("money_account", account.id)).filter(
      (entry) => entry.action === "set_opening_balance",
    );
    expect(log.map((entry) => [entry.before?.amount, entry.after?.amount])).toEqual([
      ["0", "100000"],
      ["100000", "150000"],
      ["150000", "0"],
    ]);
  });
});
