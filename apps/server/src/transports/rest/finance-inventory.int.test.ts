import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  caller,
  expectError,
  expectFieldError,
  HOSTILE_TEXT,
  MISSING_ID,
  TODAY,
  unique,
} from "../../testing/finance-records";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * Inventory items and their movements over REST: exact decimal quantities that never go below
 * zero, SKUs unique per organization, lists, bad input, permissions, other tenants.
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
type Movement = {
  id: string;
  type: string;
  quantity: string;
  quantityAfter: string;
  date: string;
  comment: string;
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
const movementsOf = async (id: string, query = ""): Promise<Movement[]> => {
  const res = await call(adminA, "GET", `/finance/inventory/${id}/movements?limit=100${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items;
};
const counts = (tenantId: string) =>
  t.db.withTenant(tenantId, async (tx) => ({
    items: await tx.inventoryItem.count(),
    movements: await tx.inventoryMovement.count(),
  }));

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

describe("items", () => {
  it("creates an item with an opening quantity, recorded as its first movement", async () => {
    const item = await createItem({
      name: "A4 paper",
      sku: "PAP-A4/500",
      unit: "pack",
      quantity: "10.500",
      unitPrice: "4500000",
      description: "500 sheets",
    });
    expect(item).toMatchObject({
      name: "A4 paper",
      sku: "PAP-A4/500",
      unit: "pack",
      quantity: "10.5",
      unitPrice: "4500000",
      currency: "UZS",
      description: "500 sheets",
    });
    expect((await call(adminA, "GET", `/finance/inventory/${item.id}`)).json()).toEqual(item);
    expect(await movementsOf(item.id)).toMatchObject([
      { type: "adjustment", quantity: "10.5", quantityAfter: "10.5", date: expect.any(String) },
    ]);
    const bare = await createItem();
    expect(bare).toMatchObject({ quantity: "0", unit: "pcs", unitPrice: "0" });
    expect(await movementsOf(bare.id)).toEqual([]);
  });

  it("a SKU is unique within the organization, not across organizations", async () => {
    const item = await createItem({ sku: "UNIQUE-1" });
    const before = await counts(tenantA.id);
    expectError(
      await call(adminA, "POST", "/finance/inventory", { name: "Copy", sku: "UNIQUE-1", currency: "UZS" }),
      409,
      "CONFLICT",
      "finance.inventory_sku_taken",
    );
    expect(await counts(tenantA.id)).toEqual(before);
    const other = await createItem({ sku: "UNIQUE-2" });
    expectError(
      await call(adminA, "PUT", `/finance/inventory/${other.id}`, { sku: "UNIQUE-1" }),
      409,
      "CONFLICT",
      "finance.inventory_sku_taken",
    );
    expect((await createItem({ sku: "UNIQUE-1" }, adminB)).sku).toBe("UNIQUE-1");
    expect(await quantityOf(item.id)).toBe("0");
  });

  it("a currency stays selected while an item's price uses it", async () => {
    const tenant = await t.createTenant();
    const admin = await t.createUser(tenant.id, "admin");
    await call(admin, "PUT", "/tenant/currencies", { codes: ["UZS", "USD"] });
    const item = await createItem({ currency: "USD", unitPrice: "250" }, admin);
    expectError(
      await call(admin, "PUT", "/tenant/currencies", { codes: ["UZS"] }),
      409,
      "CONFLICT",
      "currency.in_use",
    );
    expect((await call(admin, "PUT", `/finance/inventory/${item.id}`, { currency: "UZS" })).statusCode).toBe(
      200,
    );
    expect((await call(admin, "PUT", "/tenant/currencies", { codes: ["UZS"] })).statusCode).toBe(200);
  });

  it("updates everything but the quantity", async () => {
    const item = await createItem({ quantity: "3" });
    const res = await call(adminA, "PUT", `/finance/inventory/${item.id}`, {
      name: "Renamed",
      sku: unique("NEW").replace(/\s/g, ""),
      unit: "kg",
      unitPrice: "125",
      currency: "USD",
      description: "Imported",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: "Renamed",
      unit: "kg",
      unitPrice: "125",
      currency: "USD",
      quantity: "3",
    });
    expectFieldError(
      await call(adminA, "PUT", `/finance/inventory/${item.id}`, { quantity: "100" }),
      "quantity",
    );
    expectFieldError(
      await call(adminA, "PUT", `/finance/inventory/${item.id}`, { currency: "EUR" }),
      "currency",
      "finance.currency_not_selected",
    );
    expect(await quantityOf(item.id)).toBe("3");
    expectError(
      await call(adminA, "PUT", `/finance/inventory/${MISSING_ID}`, { name: "x" }),
      404,
      "NOT_FOUND",
      "finance.inventory_item_not_found",
    );
  });

  it("deletes only an item out of stock, with its history", async () => {
    const item = await createItem({ quantity: "2" });
    expectError(
      await call(adminA, "DELETE", `/finance/inventory/${item.id}`),
      409,
      "CONFLICT",
      "finance.inventory_in_stock",
    );
    expect((await move(item.id, "issue", "2")).statusCode).toBe(201);
    expect((await call(adminA, "DELETE", `/finance/inventory/${item.id}`)).statusCode).toBe(204);
    expectError(await call(adminA, "GET", `/finance/inventory/${item.id}`), 404, "NOT_FOUND");
    expectError(await call(adminA, "GET", `/finance/inventory/${item.id}/movements`), 404, "NOT_FOUND");
    const movements = await t.db.withTenant(tenantA.id, (tx) =>
      tx.inventoryMovement.count({ where: { itemId: item.id } }),
    );
    expect(movements).toBe(0);
    expectError(await call(adminA, "DELETE", `/finance/inventory/${item.id}`), 404, "NOT_FOUND");
  });

  it("lists with search, stock and currency filters, sorted and paged", async () => {
    const tag = unique("List").replace(/\s/g, "");
    const a = await createItem({ name: `${tag} apple`, sku: `${tag}-A`, quantity: "5" });
    const b = await createItem({ name: `${tag} banana`, sku: `${tag}-B`, quantity: "0.25", currency: "USD" });
    const c = await createItem({ name: `${tag} cherry`, sku: `${tag}-C`, unitPrice: "900" });
    const ids = async (query: string) => {
      const res = await call(adminA, "GET", `/finance/inventory?search=${tag}&${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().items.map((item: Item) => item.id);
    };
    expect(await ids("")).toEqual([a.id, b.id, c.id]);
    expect(await ids("inStock=true")).toEqual([a.id, b.id]);
    expect(await ids("inStock=false")).toEqual([c.id]);
    expect(await ids("currency=USD")).toEqual([b.id]);
    expect(await ids("sortBy=quantity&order=desc")).toEqual([a.id, b.id, c.id]);
    expect(await ids("sortBy=unitPrice&order=desc&limit=1")).toEqual([c.id]);
    expect(await ids("sortBy=sku&order=desc&limit=1&offset=1")).toEqual([b.id]);
    const bySku = await call(adminA, "GET", `/finance/inventory?search=${tag.toLowerCase()}-c`);
    expect(bySku.json()).toMatchObject({ total: 1, items: [{ id: c.id }] });
  });
});

describe("movements", () => {
  it("receipts add, issues take away, adjustments correct; all exact", async () => {
    const item = await createItem({ quantity: "10.5" });
    let res = await move(item.id, "receipt", "2.25", { comment: "Delivery 7" });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      item: { id: item.id, quantity: "12.75" },
      movement: {
        type: "receipt",
        quantity: "2.25",
        quantityAfter: "12.75",
        comment: "Delivery 7",
        date: TODAY,
      },
    });
    res = await move(item.id, "issue", "0.75");
    expect(res.json().movement).toMatchObject({ type: "issue", quantity: "-0.75", quantityAfter: "12" });
    res = await move(item.id, "adjustment", "-2", { date: "2026-11-20" });
    expect(res.json().movement).toMatchObject({ type: "adjustment", quantity: "-2", quantityAfter: "10" });
    res = await move(item.id, "adjustment", "0.000001");
    expect(res.json().item.quantity).toBe("10.000001");
    // Decimal, not binary floating point: 0.1 + 0.2 is 0.3.
    const exact = await createItem();
    await move(exact.id, "receipt", "0.1");
    await move(exact.id, "receipt", "0.2");
    expect(await quantityOf(exact.id)).toBe("0.3");
    const history = await movementsOf(item.id);
    expect(history.map((m) => [m.type, m.quantity, m.quantityAfter])).toEqual([
      ["adjustment", "0.000001", "10.000001"],
      ["adjustment", "-2", "10"],
      ["issue", "-0.75", "12"],
      ["receipt", "2.25", "12.75"],
      ["adjustment", "10.5", "10.5"],
    ]);
  });

  it("never below zero: an issue or adjustment beyond the stock is refused and writes nothing", async () => {
    const item = await createItem({ quantity: "1.5" });
    const before = await counts(tenantA.id);
    for (const [type, quantity] of [
      ["issue", "1.500001"],
      ["issue", "2"],
      ["adjustment", "-1.6"],
    ]) {
      const error = expectError(
        await move(item.id, type as string, quantity),
        422,
        "BUSINESS_RULE",
        "finance.insufficient_stock",
      );
      expect(error.message).toContain("1.5");
    }
    expect(await counts(tenantA.id)).toEqual(before);
    expect(await quantityOf(item.id)).toBe("1.5");
    const all = await move(item.id, "issue", "1.5");
    expect(all.json().item.quantity).toBe("0");
    expectError(await move(item.id, "issue", "0.000001"), 422, "BUSINESS_RULE", "finance.insufficient_stock");
  });

  it("a quantity beyond what NUMERIC(20,6) holds is refused, not wrapped", async () => {
    const item = await createItem({ quantity: "99999999999999.999999" });
    const before = await counts(tenantA.id);
    expectError(
      await move(item.id, "receipt", "0.000001"),
      422,
      "BUSINESS_RULE",
      "finance.quantity_out_of_range",
    );
    expect(await counts(tenantA.id)).toEqual(before);
    expect(await quantityOf(item.id)).toBe("99999999999999.999999");
  });

  it("lists movements by type and date, in either order, paged", async () => {
    const item = await createItem();
    await move(item.id, "receipt", "5", { date: "2026-01-01" });
    await move(item.id, "issue", "1", { date: "2026-01-02" });
    await move(item.id, "issue", "2", { date: "2026-01-03" });
    expect((await movementsOf(item.id, "&type=issue")).map((m) => m.quantity)).toEqual(["-2", "-1"]);
    expect((await movementsOf(item.id, "&order=asc")).map((m) => m.quantityAfter)).toEqual(["5", "4", "2"]);
    expect((await movementsOf(item.id, "&from=2026-01-02&to=2026-01-02")).map((m) => m.quantity)).toEqual([
      "-1",
    ]);
    const page = (
      await call(adminA, "GET", `/finance/inventory/${item.id}/movements?limit=1&offset=1`)
    ).json();
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1, items: [{ quantity: "-1" }] });
    expectError(
      await call(adminA, "POST", `/finance/inventory/${MISSING_ID}/movements`, {
        type: "receipt",
        quantity: "1",
        date: TODAY,
      }),
      404,
      "NOT_FOUND",
      "finance.inventory_item_not_found",
    );
  });
});

describe("bad input is refused, names the field and writes nothing", () => {
  let item: Item;
  beforeAll(async () => {
    item = await createItem({ quantity: "5" });
  });

  const quantityCases: Array<[string, unknown]> = [
    ["a JSON number", 1.5],
    ["a float string with too many decimals", "1.0000001"],
    ["15 integer digits", "100000000000000"],
    ["exponent form", "1e3"],
    ["a comma", "1,5"],
    ["leading zeros", "01"],
    ["a trailing point", "1."],
    ["NaN", "NaN"],
    ["Infinity", "Infinity"],
    ["huge", "9".repeat(10_000)],
  ];

  const itemCases: Array<[string, Record<string, unknown>, string]> = [
    ["missing name", { name: undefined }, "name"],
    ["empty name", { name: "" }, "name"],
    ["name too long", { name: "x".repeat(201) }, "name"],
    ...HOSTILE_TEXT.map(([what, value]): [string, Record<string, unknown>, string] => [
      `name with ${what}`,
      { name: value },
      "name",
    ]),
    ["missing sku", { sku: undefined }, "sku"],
    ["sku with a space", { sku: "A B" }, "sku"],
    ["sku as SQL", { sku: "x';DROP TABLE inventory_items;--" }, "sku"],
    ["sku too long", { sku: "A".repeat(65) }, "sku"],
    ["unit too long", { unit: "x".repeat(17) }, "unit"],
    ["empty unit", { unit: "" }, "unit"],
    ["unit price negative", { unitPrice: "-1" }, "unitPrice"],
    ["unit price fractional", { unitPrice: "1.5" }, "unitPrice"],
    ["unit price a number", { unitPrice: 100 }, "unitPrice"],
    ["unit price beyond int64", { unitPrice: "9223372036854775808" }, "unitPrice"],
    ["missing currency", { currency: undefined }, "currency"],
    ["currency not selected", { currency: "EUR" }, "currency"],
    ["currency malformed", { currency: "$" }, "currency"],
    ["description with a NUL", { description: "\u0000" }, "description"],
    ["negative quantity", { quantity: "-1" }, "quantity"],
    ...quantityCases.map(([what, quantity]): [string, Record<string, unknown>, string] => [
      `quantity ${what}`,
      { quantity },
      "quantity",
    ]),
    ["an unknown field", { price: "1" }, "price"],
  ];

  it.each(itemCases)("create: %s", async (_name, change, field) => {
    const before = await counts(tenantA.id);
    const body = { name: unique("Item"), sku: unique("S").replace(/\s/g, ""), currency: "UZS", ...change };
    expectFieldError(
      await call(adminA, "POST", "/finance/inventory", JSON.parse(JSON.stringify(body))),
      field,
    );
    expect(await counts(tenantA.id)).toEqual(before);
  });

  it.each(
    itemCases.filter(([name]) => !name.startsWith("missing")),
  )("update: %s", async (_name, change, field) => {
    const before = (await call(adminA, "GET", `/finance/inventory/${item.id}`)).json();
    expectFieldError(await call(adminA, "PUT", `/finance/inventory/${item.id}`, change), field);
    expect((await call(adminA, "GET", `/finance/inventory/${item.id}`)).json()).toEqual(before);
  });

  const movementCases: Array<[string, Record<string, unknown>, string]> = [
    ["missing type", { type: undefined }, "type"],
    ["unknown type", { type: "theft" }, "type"],
    ["missing quantity", { quantity: undefined }, "quantity"],
    ["zero quantity", { quantity: "0" }, "quantity"],
    ["zero with decimals", { quantity: "0.000" }, "quantity"],
    ["negative receipt", { type: "receipt", quantity: "-1" }, "quantity"],
    ["negative issue", { type: "issue", quantity: "-1" }, "quantity"],
    ["a plus sign", { quantity: "+1" }, "quantity"],
    ...quantityCases.map(([what, quantity]): [string, Record<string, unknown>, string] => [
      `quantity ${what}`,
      { quantity },
      "quantity",
    ]),
    ["missing date", { date: undefined }, "date"],
    ["date not a date", { date: "2026-02-30" }, "date"],
    ["comment too long", { comment: "x".repeat(1001) }, "comment"],
    ["comment with a NUL", { comment: "a\u0000" }, "comment"],
    ["quantityAfter given", { quantityAfter: "100" }, "quantityAfter"],
  ];

  it.each(movementCases)("movement: %s", async (_name, change, field) => {
    const before = await counts(tenantA.id);
    const body = { type: "receipt", quantity: "1", date: TODAY, ...change };
    expectFieldError(
      await call(adminA, "POST", `/finance/inventory/${item.id}/movements`, JSON.parse(JSON.stringify(body))),
      field,
    );
    expect(await counts(tenantA.id)).toEqual(before);
    expect(await quantityOf(item.id)).toBe("5");
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
