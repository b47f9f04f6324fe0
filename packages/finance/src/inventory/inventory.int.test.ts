import { issuePaths, refusalOf } from "@hisob/core/testing";
import type { TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFinanceTestKit, type FinanceTestKit } from "../finance-test-kit";
import type { TInventoryItemDto, TInventoryMovementDto } from "./inventory.schema";

/*
 * Inventory items and their movements, through the finance services: exact decimal quantities that
 * never go below zero, SKUs unique per organization, the list's filters and order, and input the
 * rules refuse (naming the field, writing nothing). What only a transport decides (query strings,
 * path ids, 401, every route's permission) is tested over REST in
 * apps/server/src/transports/rest/finance-inventory.int.test.ts
 * (docs/decisions/0096-tests-beside-their-features-crud-reads.md).
 */

let t: FinanceTestKit;
let tenantA: { id: string };
let adminA: TenantContext;
let adminB: TenantContext;
const TODAY = "2026-11-22";
const MISSING_ID = "00000000-0000-7000-8000-000000000000";
let sequence = 0;
const unique = (prefix: string) => `${prefix} ${++sequence}-${Math.random().toString(36).slice(2, 7)}`;
const HOSTILE_TEXT: Array<[string, unknown]> = [
  ["a NUL character", "a\u0000b"],
  ["a control character", "a\u0007b"],
  ["a lone surrogate", "a\ud800b"],
  ["a number", 42],
  ["an object", { $ne: "" }],
  ["a list", ["x"]],
  ["null", null],
];

const inventory = () => t.services.finance.inventory;

const createItem = (body: Record<string, unknown> = {}, who = adminA): Promise<TInventoryItemDto> =>
  inventory().create(who, {
    name: unique("Item"),
    sku: unique("SKU").replace(/\s/g, "-"),
    currency: "UZS",
    ...body,
  } as never);
const move = (
  id: string,
  type: string,
  quantity: unknown,
  extra: Record<string, unknown> = {},
  who = adminA,
) => inventory().recordMovement(who, id, { type, quantity, date: TODAY, ...extra } as never);
const quantityOf = async (id: string, who = adminA): Promise<string> =>
  (await inventory().get(who, id)).quantity;
const movementsOf = async (
  id: string,
  query: Record<string, unknown> = {},
): Promise<TInventoryMovementDto[]> =>
  (await inventory().movements(adminA, id, { limit: 100, ...query } as never)).items;
const counts = (tenantId: string) =>
  t.db.withTenant(tenantId, async (tx) => ({
    items: await tx.inventoryItem.count(),
    movements: await tx.inventoryMovement.count(),
  }));
const expectRefused = async (call: Promise<unknown>, code: string, reason?: string) => {
  const error = await refusalOf(call);
  expect({ code: error.code, reason: error.reason }).toEqual({ code, reason: reason ?? error.reason });
  return error;
};
const expectFieldRefused = async (call: Promise<unknown>, field: string, reason?: string) => {
  const error = await expectRefused(call, "VALIDATION_ERROR", reason);
  expect(issuePaths(error), error.message).toContain(field);
  return error;
};

beforeAll(async () => {
  t = await createFinanceTestKit();
  tenantA = await t.createTenant();
  const tenantB = await t.createTenant();
  adminA = await t.contextOf(await t.createUser(tenantA.id, "admin"));
  adminB = await t.contextOf(await t.createUser(tenantB.id, "admin"));
  await t.services.currencies.setSelected(adminA, { codes: ["UZS", "USD"] });
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
    expect(await inventory().get(adminA, item.id)).toEqual(item);
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
    await expectRefused(
      inventory().create(adminA, { name: "Copy", sku: "UNIQUE-1", currency: "UZS" }),
      "CONFLICT",
      "finance.inventory_sku_taken",
    );
    expect(await counts(tenantA.id)).toEqual(before);
    const other = await createItem({ sku: "UNIQUE-2" });
    await expectRefused(
      inventory().update(adminA, other.id, { sku: "UNIQUE-1" }),
      "CONFLICT",
      "finance.inventory_sku_taken",
    );
    expect((await createItem({ sku: "UNIQUE-1" }, adminB)).sku).toBe("UNIQUE-1");
    expect(await quantityOf(item.id)).toBe("0");
  });

  it("a currency stays selected while an item's price uses it", async () => {
    const tenant = await t.createTenant();
    const admin = await t.contextOf(await t.createUser(tenant.id, "admin"));
    await t.services.currencies.setSelected(admin, { codes: ["UZS", "USD"] });
    const item = await createItem({ currency: "USD", unitPrice: "250" }, admin);
    await expectRefused(
      t.services.currencies.setSelected(admin, { codes: ["UZS"] }),
      "CONFLICT",
      "currency.in_use",
    );
    await inventory().update(admin, item.id, { currency: "UZS" });
    expect((await t.services.currencies.setSelected(admin, { codes: ["UZS"] })).map((c) => c.code)).toEqual([
      "UZS",
    ]);
  });

  it("updates everything but the quantity", async () => {
    const item = await createItem({ quantity: "3" });
    const updated = await inventory().update(adminA, item.id, {
      name: "Renamed",
      sku: unique("NEW").replace(/\s/g, ""),
      unit: "kg",
      unitPrice: "125",
      currency: "USD",
      description: "Imported",
    });
    expect(updated).toMatchObject({
      name: "Renamed",
      unit: "kg",
      unitPrice: "125",
      currency: "USD",
      quantity: "3",
    });
    await expectFieldRefused(inventory().update(adminA, item.id, { quantity: "100" } as never), "quantity");
    await expectFieldRefused(
      inventory().update(adminA, item.id, { currency: "EUR" }),
      "currency",
      "finance.currency_not_selected",
    );
    expect(await quantityOf(item.id)).toBe("3");
    await expectRefused(
      inventory().update(adminA, MISSING_ID, { name: "x" }),
      "NOT_FOUND",
      "finance.inventory_item_not_found",
    );
  });

  it("deletes only an item out of stock, with its history", async () => {
    const item = await createItem({ quantity: "2" });
    await expectRefused(inventory().delete(adminA, item.id), "CONFLICT", "finance.inventory_in_stock");
    await move(item.id, "issue", "2");
    await inventory().delete(adminA, item.id);
    await expectRefused(inventory().get(adminA, item.id), "NOT_FOUND");
    await expectRefused(inventory().movements(adminA, item.id, {}), "NOT_FOUND");
    const movements = await t.db.withTenant(tenantA.id, (tx) =>
      tx.inventoryMovement.count({ where: { itemId: item.id } }),
    );
    expect(movements).toBe(0);
    await expectRefused(inventory().delete(adminA, item.id), "NOT_FOUND");
  });

  it("lists with search, stock and currency filters, sorted and paged", async () => {
    const tag = unique("List").replace(/\s/g, "");
    const a = await createItem({ name: `${tag} apple`, sku: `${tag}-A`, quantity: "5" });
    const b = await createItem({ name: `${tag} banana`, sku: `${tag}-B`, quantity: "0.25", currency: "USD" });
    const c = await createItem({ name: `${tag} cherry`, sku: `${tag}-C`, unitPrice: "900" });
    const ids = async (query: Record<string, unknown>) =>
      (await inventory().list(adminA, { search: tag, ...query } as never)).items.map((item) => item.id);
    expect(await ids({})).toEqual([a.id, b.id, c.id]);
    expect(await ids({ inStock: "true" })).toEqual([a.id, b.id]);
    expect(await ids({ inStock: "false" })).toEqual([c.id]);
    expect(await ids({ currency: "USD" })).toEqual([b.id]);
    expect(await ids({ sortBy: "quantity", order: "desc" })).toEqual([a.id, b.id, c.id]);
    expect(await ids({ sortBy: "unitPrice", order: "desc", limit: 1 })).toEqual([c.id]);
    expect(await ids({ sortBy: "sku", order: "desc", limit: 1, offset: 1 })).toEqual([b.id]);
    const bySku = await inventory().list(adminA, { search: `${tag.toLowerCase()}-c` });
    expect(bySku).toMatchObject({ total: 1, items: [{ id: c.id }] });
  });
});

describe("movements", () => {
  it("receipts add, issues take away, adjustments correct; all exact", async () => {
    const item = await createItem({ quantity: "10.5" });
    let moved = await move(item.id, "receipt", "2.25", { comment: "Delivery 7" });
    expect(moved).toMatchObject({
      item: { id: item.id, quantity: "12.75" },
      movement: {
        type: "receipt",
        quantity: "2.25",
        quantityAfter: "12.75",
        comment: "Delivery 7",
        date: TODAY,
      },
    });
    moved = await move(item.id, "issue", "0.75");
    expect(moved.movement).toMatchObject({ type: "issue", quantity: "-0.75", quantityAfter: "12" });
    moved = await move(item.id, "adjustment", "-2", { date: "2026-11-20" });
    expect(moved.movement).toMatchObject({ type: "adjustment", quantity: "-2", quantityAfter: "10" });
    moved = await move(item.id, "adjustment", "0.000001");
    expect(moved.item.quantity).toBe("10.000001");
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
      const error = await expectRefused(
        move(item.id, type as string, quantity),
        "BUSINESS_RULE",
        "finance.insufficient_stock",
      );
      expect(error.message).toContain("1.5");
    }
    expect(await counts(tenantA.id)).toEqual(before);
    expect(await quantityOf(item.id)).toBe("1.5");
    const all = await move(item.id, "issue", "1.5");
    expect(all.item.quantity).toBe("0");
    await expectRefused(move(item.id, "issue", "0.000001"), "BUSINESS_RULE", "finance.insufficient_stock");
  });

  it("a quantity beyond what NUMERIC(20,6) holds is refused, not wrapped", async () => {
    const item = await createItem({ quantity: "99999999999999.999999" });
    const before = await counts(tenantA.id);
    await expectRefused(
      move(item.id, "receipt", "0.000001"),
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
    expect((await movementsOf(item.id, { type: "issue" })).map((m) => m.quantity)).toEqual(["-2", "-1"]);
    expect((await movementsOf(item.id, { order: "asc" })).map((m) => m.quantityAfter)).toEqual([
      "5",
      "4",
      "2",
    ]);
    expect(
      (await movementsOf(item.id, { from: "2026-01-02", to: "2026-01-02" })).map((m) => m.quantity),
    ).toEqual(["-1"]);
    const page = await inventory().movements(adminA, item.id, { limit: 1, offset: 1 });
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1, items: [{ quantity: "-1" }] });
    await expectRefused(move(MISSING_ID, "receipt", "1"), "NOT_FOUND", "finance.inventory_item_not_found");
  });
});

describe("bad input is refused, names the field and writes nothing", () => {
  let item: TInventoryItemDto;
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

  // As a JSON body arrives: a field set to undefined is absent.
  const asJson = (body: Record<string, unknown>) => JSON.parse(JSON.stringify(body));

  it.each(itemCases)("create: %s", async (_name, change, field) => {
    const before = await counts(tenantA.id);
    const body = { name: unique("Item"), sku: unique("S").replace(/\s/g, ""), currency: "UZS", ...change };
    await expectFieldRefused(inventory().create(adminA, asJson(body)), field);
    expect(await counts(tenantA.id)).toEqual(before);
  });

  it.each(
    itemCases.filter(([name]) => !name.startsWith("missing")),
  )("update: %s", async (_name, change, field) => {
    const before = await inventory().get(adminA, item.id);
    await expectFieldRefused(inventory().update(adminA, item.id, change as never), field);
    expect(await inventory().get(adminA, item.id)).toEqual(before);
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
    await expectFieldRefused(inventory().recordMovement(adminA, item.id, asJson(body)), field);
    expect(await counts(tenantA.id)).toEqual(before);
    expect(await quantityOf(item.id)).toBe("5");
  });
});
