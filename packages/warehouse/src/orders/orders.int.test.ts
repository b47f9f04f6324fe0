import { createServiceTestKit, issuePaths, refusalOf, type ServiceTestKit } from "@hisob/core/testing";
import type { TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWarehouseServices, type WarehouseServices } from "../warehouse-services";
// Registers the warehouse permissions, which the kit syncs into the database: a tenant's admin role holds them.
import "../warehouse.permissions";

/*
 * A product through stock and a sales order, through the warehouse services
 * (docs/decisions/0107-a-codebase-a-newcomer-can-carry-on.md): stock never goes below zero, an order
 * is confirmed, fulfilled and then no longer cancelled. Over REST
 * (apps/server/src/transports/rest/modules-rest.int.test.ts) stay the query string, the permission
 * and other organizations' ids.
 */

let t: ServiceTestKit<{ warehouse: WarehouseServices }>;
let admin: TenantContext;
let run = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++run}`;

const warehouse = () => t.services.warehouse;

beforeAll(async () => {
  t = await createServiceTestKit({ services: (deps) => ({ warehouse: createWarehouseServices(deps) }) });
  const tenant = await t.createTenant();
  admin = await t.contextOf(await t.createUser(tenant.id, "admin"));
  await t.services.currencies.setSelected(admin, { codes: ["UZS", "USD"] });
});

afterAll(async () => {
  await t?.close();
});

describe("a product through stock and an order", () => {
  it("takes a product through stock and an order: adjust, confirm, fulfil, refuse below zero", async () => {
    const product = await warehouse().products.create(admin, {
      sku: unique("SKU"),
      name: "Choy 250 g",
      price: "15000",
      currency: "UZS",
    });
    const location = await warehouse().locations.create(admin, { code: unique("L"), name: "Main" });
    const adjusted = await warehouse().stock.adjust(admin, {
      productId: product.id,
      locationId: location.id,
      change: "5",
      reason: "Stocktake",
    });
    expect(adjusted).toMatchObject({ productId: product.id, quantity: "5" });

    const sale = () =>
      warehouse().orders.create(admin, {
        kind: "sales",
        locationId: location.id,
        currency: "UZS",
        date: "2026-11-25",
        lines: [{ productId: product.id, quantity: "3" }],
      });
    const order = await sale();
    expect(order).toMatchObject({ status: "draft", total: "45000" });
    expect(await warehouse().orders.confirm(admin, order.id)).toMatchObject({ status: "confirmed" });
    expect(await warehouse().orders.fulfil(admin, order.id)).toMatchObject({ status: "fulfilled" });
    expect(await refusalOf(warehouse().orders.cancel(admin, order.id))).toMatchObject({
      code: "BUSINESS_RULE",
    });

    const stock = await warehouse().stock.list(admin, {
      inStock: true,
      filters: [{ field: "productId", operator: "eq", value: product.id }],
    });
    expect(stock).toMatchObject({ total: 1, items: [{ quantity: "2" }] });

    const tooMuch = await sale();
    await warehouse().orders.confirm(admin, tooMuch.id);
    expect(await refusalOf(warehouse().orders.fulfil(admin, tooMuch.id))).toMatchObject({
      code: "BUSINESS_RULE",
      reason: "warehouse.insufficient_stock",
    });
    // The refused fulfilment took nothing out.
    expect(
      await warehouse().stock.list(admin, {
        filters: [{ field: "productId", operator: "eq", value: product.id }],
      }),
    ).toMatchObject({ total: 1, items: [{ quantity: "2" }] });
    const tooLarge = await refusalOf(
      warehouse().stock.adjust(admin, {
        productId: product.id,
        locationId: location.id,
        change: "1e9",
        reason: "x",
      }),
    );
    expect(issuePaths(tooLarge)).toContain("change");
  });
});
