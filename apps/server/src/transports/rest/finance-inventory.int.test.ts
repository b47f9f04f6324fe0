import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, expectError, expectFieldError, TODAY, unique } from "../../testing/finance-records";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * Inventory over REST: what the transport decides (query strings and path ids refused with the
 * field named, 401 without credentials, each route's permission, other tenants' ids on every
 * route). The rules themselves (quantities, SKUs, the list, bad bodies) are tested through the
 * services beside them: packages/finance/src/inventory/inventory.int.test.ts.
 */

let t: TestApp;
let tenantA: { id: string };
let adminA: SeededUser;
let adminB: SeededUser;
const call = caller(() => t);

type Item = {
  id: string;
  name: string;
  sku: string;
  unit: string;
  quantity: string;
  unitPrice: string;
  currency: string;
  description: string;
};
const createItem = async (body: Record<string, unknown> = {}, who = adminA): Promise<Item> => {
  const res = await call(who, "POST", "/finance/inventory", {
    name: unique("Item"),
    sku: unique("SKU").replace(/\s/g, "-"),
    currency: "UZS",
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};
const move = (
  id: string,
  type: string,
  quantity: unknown,
  extra: Record<string, unknown> = {},
  who = adminA,
) => call(who, "POST", `/finance/inventory/${id}/movements`, { type, quantity, date: TODAY, ...extra });
const quantityOf = async (id: string, who = adminA): Promise<string> =>
  (await call(who, "GET", `/finance/inventory/${id}`)).json().quantity;

beforeAll(async () => {
  t = await createTestApp();
  tenantA = await t.createTenant();
  const tenantB = await t.createTenant();
  adminA = await t.createUser(tenantA.id, "admin");
  adminB = await t.createUser(tenantB.id, "admin");
  await call(adminA, "PUT", "/tenant/currencies", { codes: ["UZS", "USD"] });
});

afterAll(async () => {
  await t?.close();
});

describe("bad query strings and path ids are refused, naming the field", () => {
  let item: Item;
  beforeAll(async () => {
    item = await createItem({ quantity: "5" });
  });

  it.each([
    ["/finance/inventory?sortBy=value", "sortBy"],
    ["/finance/inventory?inStock=1", "inStock"],
    ["/finance/inventory?currency=uzs", "currency"],
    ["/finance/inventory?limit=-1", "limit"],
    ["/finance/inventory?search=", "search"],
    ["/finance/inventory?search=%00", "search"],
    ["/finance/inventory/xyz", "id"],
    ["/finance/inventory/xyz/movements", "id"],
  ])("query %s", async (url, field) => {
    expectFieldError(await call(adminA, "GET", url), field);
  });

  it("movement list queries", async () => {
    const base = `/finance/inventory/${item.id}/movements`;
    expectFieldError(await call(adminA, "GET", `${base}?type=theft`), "type");
    expectFieldError(await call(adminA, "GET", `${base}?from=2026-02-01&to=2026-01-01`), "to");
    expectFieldError(await call(adminA, "GET", `${base}?order=sideways`), "order");
  });
});

describe("permissions and tenancy", () => {
  it("each route needs its permission; without credentials, 401", async () => {
    const item = await createItem({ quantity: "3" });
    const reader = await t.createUser(tenantA.id, ["inventory:read:all"]);
    const forbidden: Array<["GET" | "POST" | "PUT" | "DELETE", string, unknown?]> = [
      ["POST", "/finance/inventory", { name: "X", sku: "X", currency: "UZS" }],
      ["PUT", `/finance/inventory/${item.id}`, { name: "X" }],
      ["DELETE", `/finance/inventory/${item.id}`],
      ["POST", `/finance/inventory/${item.id}/movements`, { type: "issue", quantity: "1", date: TODAY }],
    ];
    for (const [method, url, body] of forbidden)
      expectError(await call(reader, method, url, body), 403, "FORBIDDEN");
    expect((await call(reader, "GET", `/finance/inventory/${item.id}/movements`)).statusCode).toBe(200);
    // A storekeeper may move stock without editing items.
    const storekeeper = await t.createUser(tenantA.id, ["inventory:move:all"]);
    expect((await move(item.id, "issue", "1", {}, storekeeper)).statusCode).toBe(201);
    expectError(await call(storekeeper, "GET", "/finance/inventory"), 403, "FORBIDDEN");
    expectError(
      await call(storekeeper, "PUT", `/finance/inventory/${item.id}`, { unitPrice: "1" }),
      403,
      "FORBIDDEN",
    );
    expectError(await call(null, "GET", "/finance/inventory"), 401, "UNAUTHENTICATED");
    expectError(
      await call(null, "POST", `/finance/inventory/${item.id}/movements`, {}),
      401,
      "UNAUTHENTICATED",
    );
    expect(await quantityOf(item.id)).toBe("2");
  });

  it("another tenant's items are not found on any route and never listed", async () => {
    const foreign = await createItem({ quantity: "7" }, adminB);
    const attempts: Array<["GET" | "POST" | "PUT" | "DELETE", string, unknown?]> = [
      ["GET", `/finance/inventory/${foreign.id}`],
      ["PUT", `/finance/inventory/${foreign.id}`, { name: "Mine" }],
      ["DELETE", `/finance/inventory/${foreign.id}`],
      ["GET", `/finance/inventory/${foreign.id}/movements`],
      ["POST", `/finance/inventory/${foreign.id}/movements`, { type: "issue", quantity: "7", date: TODAY }],
      ["POST", `/finance/inventory/${foreign.id}/movements`, { type: "receipt", quantity: "1", date: TODAY }],
    ];
    for (const [method, url, body] of attempts)
      expectError(await call(adminA, method, url, body), 404, "NOT_FOUND");
    expect(await quantityOf(foreign.id, adminB)).toBe("7");
    expect((await call(adminA, "GET", "/finance/inventory?limit=100")).body).not.toContain(foreign.id);
    expect((await call(adminA, "GET", `/finance/inventory?search=${foreign.sku}`)).json().total).toBe(0);
  });
});
