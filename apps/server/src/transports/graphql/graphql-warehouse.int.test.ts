import type { TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { codeOf, type GraphqlResponse, gql, listen } from "./graphql-test-kit";

/*
 * The Warehouse module over the real GraphQL endpoint: products, locations, inventory and orders.
 * Happy paths, errors and security per operation, and fulfilments racing for the last units (run it on
 * PostgreSQL for real concurrency: DATABASE_URL=… npx vitest run <this file>).
 */

let t: TestApp;
let url: string;
let tenantId: string;
let otherTenantId: string;
let admin: SeededUser;
let clerk: SeededUser;
let outsider: SeededUser;
let otherAdmin: SeededUser;
let main: string;
let other: { productId: string; locationId: string; orderId: string; clientId: string };

const contextOf = async (user: SeededUser) =>
  (await t.services.context.resolveContext({ bearerToken: user.token, requestId: "seed" })) as TenantContext;

const run = (user: SeededUser | null, query: string, variables: Record<string, unknown> = {}) =>
  gql(url, query, { variables, ...(user ? { headers: user.headers } : {}) });
const dataOf = <T>(response: GraphqlResponse, field: string): T => {
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
  return response.body.data?.[field] as T;
};
const errorOf = (response: GraphqlResponse) => response.body.errors?.[0];

const PRODUCT = "id sku name unit price currency barcode";
const CREATE_PRODUCT = `mutation($input: ProductInput!) { createProduct(input: $input) { ${PRODUCT} } }`;
const UPDATE_PRODUCT = `mutation($id: ID!, $input: ProductPatch!) { updateProduct(id: $id, input: $input) { ${PRODUCT} } }`;
const DELETE_PRODUCT = "mutation($id: ID!) { deleteProduct(id: $id) }";
const GET_PRODUCT = `query($id: ID!) { product(id: $id) { ${PRODUCT} } }`;
const LIST_PRODUCTS = `query($filters: [Filter!], $sortBy: [String!]) { products(filters: $filters, sortBy: $sortBy) { total data { sku } } }`;
const CREATE_LOCATION = "mutation($input: LocationInput!) { createLocation(input: $input) { id code name } }";
const DELETE_LOCATION = "mutation($id: ID!) { deleteLocation(id: $id) }";
const INVENTORY = `query($filters: [Filter!], $inStock: Boolean) {
  inventory(filters: $filters, inStock: $inStock) { total data { productId quantity product { sku } location { code } } }
}`;
const ADJUST =
  "mutation($input: InventoryAdjustmentInput!) { adjustInventory(input: $input) { productId locationId quantity } }";
const ORDER = `id kind status total currency date clientId client { name } location { code }
  lines { position productId quantity unitPrice amount product { sku } }`;
const CREATE_ORDER = `mutation($input: OrderInput!) { createOrder(input: $input) { ${ORDER} } }`;
const UPDATE_ORDER = `mutation($id: ID!, $input: OrderPatch!) { updateOrder(id: $id, input: $input) { ${ORDER} } }`;
const DELETE_ORDER = "mutation($id: ID!) { deleteOrder(id: $id) }";
const GET_ORDER = `query($id: ID!) { order(id: $id) { ${ORDER} } }`;
const LIST_ORDERS = "query($filters: [Filter!]) { orders(filters: $filters) { total data { id status } } }";
const CONFIRM = "mutation($id: ID!) { confirmOrder(id: $id) { id status } }";
const FULFIL = "mutation($id: ID!) { fulfilOrder(id: $id) { id status } }";
const CANCEL = "mutation($id: ID!) { cancelOrder(id: $id) { id status } }";

let sequence = 0;
const newProduct = async (extra: Record<string, unknown> = {}) =>
  dataOf<{ id: string; sku: string }>(
    await run(admin, CREATE_PRODUCT, {
      input: {
        sku: `SKU-${++sequence}`,
        name: `Product ${sequence}`,
        price: "150000",
        currency: "UZS",
        ...extra,
      },
    }),
    "createProduct",
  );
const quantityOf = async (productId: string, locationId = main) => {
  const page = dataOf<{ data: { quantity: string }[] }>(
    await run(admin, INVENTORY, {
      filters: [
        { field: "productId", operator: "eq", value: productId },
        { field: "locationId", operator: "eq", value: locationId },
      ],
    }),
    "inventory",
  );
  return page.data[0]?.quantity ?? "0";
};
const order = async (
  kind: "purchase" | "sales",
  lines: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
) =>
  dataOf<{ id: string; status: string; total: string }>(
    await run(admin, CREATE_ORDER, {
      input: { kind, locationId: main, currency: "UZS", date: "2026-11-25", lines, ...extra },
    }),
    "createOrder",
  );
const confirmed = async (kind: "purchase" | "sales", lines: Record<string, unknown>[]) => {
  const created = await order(kind, lines);
  dataOf(await run(admin, CONFIRM, { id: created.id }), "confirmOrder");
  return created.id;
};

beforeAll(async () => {
  t = await createTestApp({ poolSize: 12 });
  ({ httpUrl: url } = await listen(t));
  tenantId = (await t.createTenant()).id;
  otherTenantId = (await t.createTenant()).id;
  admin = await t.createUser(tenantId, "admin");
  clerk = await t.createUser(tenantId, [
    "products:read:all",
    "stock:read:all",
    "orders:read:all",
    "locations:read:all",
  ]);
  outsider = await t.createUser(tenantId, []);
  otherAdmin = await t.createUser(otherTenantId, "admin");
  await t.services.currencies.setSelected(await contextOf(admin), { codes: ["UZS", "USD"] });
  main = dataOf<{ id: string }>(
    await run(admin, CREATE_LOCATION, { input: { code: "MAIN", name: "Main warehouse" } }),
    "createLocation",
  ).id;
  const otherCtx = await contextOf(otherAdmin);
  const warehouse = t.services.warehouse;
  const productId = (
    await warehouse.products.create(otherCtx, { sku: "THEIRS", name: "Theirs", currency: "UZS" })
  ).id;
  const locationId = (await warehouse.locations.create(otherCtx, { code: "T", name: "Theirs" })).id;
  const clientId = (await t.services.crm.clients.create(otherCtx, { name: "Their client" })).id;
  const orderId = (
    await warehouse.orders.create(otherCtx, {
      kind: "purchase",
      locationId,
      currency: "UZS",
      date: "2026-11-25",
      lines: [{ productId, quantity: "5" }],
    })
  ).id;
  other = { productId, locationId, orderId, clientId };
});
afterAll(async () => t?.close());

describe("products and locations", () => {
  it("creates, reads, lists, updates and deletes a product", async () => {
    const created = await newProduct({
      sku: "TEA-GREEN-250",
      name: "Green tea 250 g",
      unit: "pack",
      barcode: "4780000000011",
    });
    expect(created).toMatchObject({ sku: "TEA-GREEN-250", price: "150000", currency: "UZS", unit: "pack" });
    expect(dataOf(await run(clerk, GET_PRODUCT, { id: created.id }), "product")).toMatchObject({
      name: "Green tea 250 g",
    });
    const listed = dataOf<{ data: { sku: string }[] }>(
      await run(clerk, LIST_PRODUCTS, { filters: [{ field: "sku", operator: "like", value: "tea-" }] }),
      "products",
    );
    expect(listed.data.map((product) => product.sku)).toEqual(["TEA-GREEN-250"]);
    const updated = dataOf(
      await run(admin, UPDATE_PRODUCT, {
        id: created.id,
        input: { price: "9007199254740993", currency: "USD" },
      }),
      "updateProduct",
    );
    expect(updated).toMatchObject({ price: "9007199254740993", currency: "USD" });
    expect(dataOf(await run(admin, DELETE_PRODUCT, { id: created.id }), "deleteProduct")).toBe(true);
    expect(codeOf(await run(admin, GET_PRODUCT, { id: created.id }))).toBe("NOT_FOUND");
  });

  it("refuses a taken SKU, an unselected currency, bad input, and a SKU finance counts as inventory", async () => {
    const taken = await newProduct();
    expect(
      errorOf(await run(admin, CREATE_PRODUCT, { input: { sku: taken.sku, name: "Dup", currency: "UZS" } }))
        ?.extensions,
    ).toMatchObject({
      code: "CONFLICT",
      reason: "warehouse.sku_taken",
    });
    const currency = await run(admin, CREATE_PRODUCT, { input: { sku: "X-1", name: "X", currency: "JPY" } });
    expect(errorOf(currency)?.extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      reason: "warehouse.currency_not_selected",
    });
    expect(errorOf(currency)?.message).toBe(
      "validation error: currency is not one of the organization's currencies",
    );
    for (const input of [
      { sku: "has space", name: "X", currency: "UZS" },
      { sku: "X-2", name: "X", currency: "UZS", price: "-1" },
      { sku: "X-3", name: "X", currency: "uzs" },
      { sku: "X-4", name: "", currency: "UZS" },
    ]) {
      expect(codeOf(await run(admin, CREATE_PRODUCT, { input })), JSON.stringify(input)).toBe(
        "VALIDATION_ERROR",
      );
    }
    await t.services.finance.inventory.create(await contextOf(admin), {
      name: "Paper",
      sku: "PAPER-A4",
      currency: "UZS",
    });
    expect(
      errorOf(
        await run(admin, CREATE_PRODUCT, { input: { sku: "PAPER-A4", name: "Paper", currency: "UZS" } }),
      )?.extensions,
    ).toMatchObject({
      code: "CONFLICT",
      reason: "warehouse.sku_in_finance_inventory",
    });
    const count = await t.db.withTenant(tenantId, (tx) =>
      tx.warehouseProduct.count({ where: { sku: { startsWith: "X-" } } }),
    );
    expect(count).toBe(0);
  });

  it("guards every product and location operation: credentials, permission, another organization's ids", async () => {
    const { id } = await newProduct();
    const operations: [string, Record<string, unknown>][] = [
      [LIST_PRODUCTS, {}],
      [GET_PRODUCT, { id }],
      [CREATE_PRODUCT, { input: { sku: "N-1", name: "N", currency: "UZS" } }],
      [UPDATE_PRODUCT, { id, input: { name: "N" } }],
      [DELETE_PRODUCT, { id }],
      [CREATE_LOCATION, { input: { code: "N", name: "N" } }],
      [DELETE_LOCATION, { id: main }],
      [INVENTORY, {}],
      [ADJUST, { input: { productId: id, locationId: main, change: "1", reason: "count" } }],
    ];
    for (const [query, variables] of operations) {
      expect(codeOf(await run(null, query, variables)), query).toBe("UNAUTHENTICATED");
      expect(codeOf(await run(outsider, query, variables)), query).toBe("FORBIDDEN");
    }
    expect(codeOf(await run(clerk, UPDATE_PRODUCT, { id, input: { name: "N" } }))).toBe("FORBIDDEN");
    for (const [query, variables] of [
      [GET_PRODUCT, { id: other.productId }],
      [UPDATE_PRODUCT, { id: other.productId, input: { name: "Hijacked" } }],
      [DELETE_PRODUCT, { id: other.productId }],
      [DELETE_LOCATION, { id: other.locationId }],
      [ADJUST, { input: { productId: other.productId, locationId: main, change: "1", reason: "x" } }],
      [ADJUST, { input: { productId: id, locationId: other.locationId, change: "1", reason: "x" } }],
    ] as const) {
      expect(codeOf(await run(admin, query, variables)), query).toBe("NOT_FOUND");
    }
    const theirs = await t.services.warehouse.products.get(await contextOf(otherAdmin), other.productId);
    expect(theirs.name).toBe("Theirs");
  });

  it("adjusts inventory after a stocktake, never below zero; a location with stock cannot be deleted", async () => {
    const { id } = await newProduct();
    const shop = dataOf<{ id: string }>(
      await run(admin, CREATE_LOCATION, { input: { code: "SHOP-1", name: "Shop" } }),
      "createLocation",
    ).id;
    expect(
      dataOf(
        await run(admin, ADJUST, {
          input: { productId: id, locationId: shop, change: "12.5", reason: "opening count" },
        }),
        "adjustInventory",
      ),
    ).toMatchObject({ quantity: "12.5" });
    const refused = await run(admin, ADJUST, {
      input: { productId: id, locationId: shop, change: "-13", reason: "loss" },
    });
    expect(errorOf(refused)?.extensions).toMatchObject({
      code: "BUSINESS_RULE",
      reason: "warehouse.insufficient_stock",
    });
    expect(await quantityOf(id, shop)).toBe("12.5");
    expect(
      codeOf(
        await run(admin, ADJUST, { input: { productId: id, locationId: shop, change: "1e3", reason: "x" } }),
      ),
    ).toBe("VALIDATION_ERROR");
    expect(errorOf(await run(admin, DELETE_LOCATION, { id: shop }))?.extensions).toMatchObject({
      code: "CONFLICT",
      reason: "warehouse.location_in_use",
    });
    await run(admin, ADJUST, {
      input: { productId: id, locationId: shop, change: "-12.5", reason: "moved out" },
    });
    expect(dataOf(await run(admin, DELETE_LOCATION, { id: shop }), "deleteLocation")).toBe(true);
  });
});

describe("orders", () => {
  it("purchase: draft → confirmed → fulfilled adds stock; sales takes it; totals are exact", async () => {
    const tea = await newProduct({ price: "12345" });
    const cups = await newProduct({ price: "999" });
    const created = await order(
      "purchase",
      [
        { productId: tea.id, quantity: "10" },
        { productId: cups.id, quantity: "2.5", unitPrice: "1001" },
      ],
      { note: "First delivery" },
    );
    // 10 × 12 345 + 2.5 × 1 001 = 123 450 + 2 502.5 → 2 503 (half up) = 125 953
    expect(created).toMatchObject({ status: "draft", total: "125953" });
    const draft = dataOf<{ lines: { amount: string; product: { sku: string } }[] }>(
      await run(clerk, GET_ORDER, { id: created.id }),
      "order",
    );
    expect(draft.lines.map((line) => line.amount)).toEqual(["123450", "2503"]);
    expect(dataOf(await run(admin, CONFIRM, { id: created.id }), "confirmOrder")).toMatchObject({
      status: "confirmed",
    });
    expect(await quantityOf(tea.id)).toBe("0");
    expect(dataOf(await run(admin, FULFIL, { id: created.id }), "fulfilOrder")).toMatchObject({
      status: "fulfilled",
    });
    expect(await quantityOf(tea.id)).toBe("10");
    expect(await quantityOf(cups.id)).toBe("2.5");

    const sale = await confirmed("sales", [{ productId: tea.id, quantity: "4" }]);
    dataOf(await run(admin, FULFIL, { id: sale }), "fulfilOrder");
    expect(await quantityOf(tea.id)).toBe("6");
    // Fulfilled is final.
    for (const mutation of [FULFIL, CONFIRM, CANCEL, DELETE_ORDER]) {
      expect(errorOf(await run(admin, mutation, { id: sale }))?.extensions).toMatchObject({
        code: "BUSINESS_RULE",
        reason: "warehouse.order_wrong_status",
      });
    }
    expect(await quantityOf(tea.id)).toBe("6");
  });

  it("refuses a sale beyond the stock as a whole: nothing moves and the order stays confirmed", async () => {
    const a = await newProduct();
    const b = await newProduct();
    await run(admin, ADJUST, { input: { productId: a.id, locationId: main, change: "5", reason: "count" } });
    await run(admin, ADJUST, { input: { productId: b.id, locationId: main, change: "1", reason: "count" } });
    const sale = await confirmed("sales", [
      { productId: a.id, quantity: "3" },
      { productId: b.id, quantity: "2" },
    ]);
    const refused = await run(admin, FULFIL, { id: sale });
    expect(errorOf(refused)?.extensions).toMatchObject({
      code: "BUSINESS_RULE",
      reason: "warehouse.insufficient_stock",
    });
    expect(await quantityOf(a.id)).toBe("5");
    expect(await quantityOf(b.id)).toBe("1");
    expect(dataOf<{ status: string }>(await run(admin, GET_ORDER, { id: sale }), "order").status).toBe(
      "confirmed",
    );
    expect(dataOf(await run(admin, CANCEL, { id: sale }), "cancelOrder")).toMatchObject({
      status: "cancelled",
    });
    expect(dataOf(await run(admin, DELETE_ORDER, { id: sale }), "deleteOrder")).toBe(true);
  });

  it("edits only drafts; a line's price defaults to the product's in its currency, else it must be given", async () => {
    const usd = await newProduct({ currency: "USD", price: "250" });
    const uzs = await newProduct({ price: "1000" });
    const missing = await run(admin, CREATE_ORDER, {
      input: {
        kind: "sales",
        locationId: main,
        currency: "UZS",
        date: "2026-11-25",
        lines: [{ productId: usd.id, quantity: "1" }],
      },
    });
    expect(errorOf(missing)?.extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      reason: "warehouse.unit_price_required",
    });
    expect(errorOf(missing)?.message).toMatch(/^validation error: lines\.0\.unitPrice/);
    const created = await order("sales", [{ productId: uzs.id, quantity: "3" }]);
    const edited = dataOf<{ total: string; lines: unknown[] }>(
      await run(admin, UPDATE_ORDER, {
        id: created.id,
        input: {
          lines: [
            { productId: uzs.id, quantity: "1" },
            { productId: usd.id, quantity: "2", unitPrice: "3000000" },
          ],
          note: "Changed",
        },
      }),
      "updateOrder",
    );
    expect(edited).toMatchObject({ total: "6001000" });
    expect(edited.lines).toHaveLength(2);
    await run(admin, CONFIRM, { id: created.id });
    expect(
      errorOf(await run(admin, UPDATE_ORDER, { id: created.id, input: { note: "Too late" } }))?.extensions
        .reason,
    ).toBe("warehouse.order_wrong_status");
    for (const input of [
      {
        kind: "sales",
        locationId: main,
        currency: "UZS",
        date: "2026-02-30",
        lines: [{ productId: uzs.id, quantity: "1" }],
      },
      { kind: "sales", locationId: main, currency: "UZS", date: "2026-11-25", lines: [] },
      {
        kind: "sales",
        locationId: main,
        currency: "UZS",
        date: "2026-11-25",
        lines: [{ productId: uzs.id, quantity: "0" }],
      },
      {
        kind: "barter",
        locationId: main,
        currency: "UZS",
        date: "2026-11-25",
        lines: [{ productId: uzs.id, quantity: "1" }],
      },
    ]) {
      expect(codeOf(await run(admin, CREATE_ORDER, { input })), JSON.stringify(input)).toBe(
        "VALIDATION_ERROR",
      );
    }
  });

  it("guards every order operation: credentials, permission, another organization's ids and references", async () => {
    const product = await newProduct();
    const draft = await order("purchase", [{ productId: product.id, quantity: "1" }]);
    const lines = [{ productId: product.id, quantity: "1" }];
    const operations: [string, Record<string, unknown>][] = [
      [LIST_ORDERS, {}],
      [GET_ORDER, { id: draft.id }],
      [
        CREATE_ORDER,
        { input: { kind: "purchase", locationId: main, currency: "UZS", date: "2026-11-25", lines } },
      ],
      [UPDATE_ORDER, { id: draft.id, input: { note: "x" } }],
      [DELETE_ORDER, { id: draft.id }],
      [CONFIRM, { id: draft.id }],
      [FULFIL, { id: draft.id }],
      [CANCEL, { id: draft.id }],
    ];
    for (const [query, variables] of operations) {
      expect(codeOf(await run(null, query, variables)), query).toBe("UNAUTHENTICATED");
      expect(codeOf(await run(outsider, query, variables)), query).toBe("FORBIDDEN");
    }
    expect(codeOf(await run(clerk, CONFIRM, { id: draft.id }))).toBe("FORBIDDEN");
    for (const mutation of [GET_ORDER, CONFIRM, FULFIL, CANCEL, DELETE_ORDER]) {
      expect(codeOf(await run(admin, mutation, { id: other.orderId })), mutation).toBe("NOT_FOUND");
    }
    const before = await t.db.withTenant(tenantId, (tx) => tx.warehouseOrder.count());
    for (const [input, reason] of [
      [{ locationId: other.locationId, lines }, "warehouse.location_not_found"],
      [
        { locationId: main, lines: [{ productId: other.productId, quantity: "1" }] },
        "warehouse.product_not_found",
      ],
      [{ locationId: main, clientId: other.clientId, lines }, "crm.client_not_found"],
    ] as const) {
      const res = await run(admin, CREATE_ORDER, {
        input: { kind: "sales", currency: "UZS", date: "2026-11-25", ...input },
      });
      expect(errorOf(res)?.extensions).toMatchObject({ code: "NOT_FOUND", reason });
    }
    expect(await t.db.withTenant(tenantId, (tx) => tx.warehouseOrder.count())).toBe(before);
    const theirs = await t.services.warehouse.orders.get(await contextOf(otherAdmin), other.orderId);
    expect(theirs.status).toBe("draft");
  });

  it("fulfilments racing for the last units: exactly as many win as there are units, stock ends at zero", async () => {
    const product = await newProduct();
    await run(admin, ADJUST, {
      input: { productId: product.id, locationId: main, change: "3", reason: "count" },
    });
    const orders: string[] = [];
    for (let index = 0; index < 10; index += 1)
      orders.push(await confirmed("sales", [{ productId: product.id, quantity: "1" }]));
    const results = await Promise.all(orders.map((id) => run(admin, FULFIL, { id })));
    const won = results.filter((res) => !res.body.errors);
    const lost = results.filter((res) => res.body.errors);
    expect(won).toHaveLength(3);
    expect(lost.map((res) => errorOf(res)?.extensions.reason)).toEqual(
      Array(7).fill("warehouse.insufficient_stock"),
    );
    expect(await quantityOf(product.id)).toBe("0");
    const statuses = await t.db.withTenant(tenantId, (tx) =>
      tx.warehouseOrder.groupBy({ by: ["status"], where: { id: { in: orders } }, _count: true }),
    );
    expect(Object.fromEntries(statuses.map((row) => [row.status, row._count]))).toEqual({
      fulfilled: 3,
      confirmed: 7,
    });
    // The same order fulfilled twice at once moves its stock once.
    await run(admin, ADJUST, {
      input: { productId: product.id, locationId: main, change: "5", reason: "count" },
    });
    const twice = await confirmed("sales", [{ productId: product.id, quantity: "2" }]);
    const both = await Promise.all([run(admin, FULFIL, { id: twice }), run(admin, FULFIL, { id: twice })]);
    expect(both.filter((res) => !res.body.errors)).toHaveLength(1);
    expect(await quantityOf(product.id)).toBe("3");
  });
});
