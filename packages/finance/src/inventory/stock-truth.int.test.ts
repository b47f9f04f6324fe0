import { createServiceTestKit, refusalOf, type ServiceTestKit } from "@hisob/core/testing";
import { errorMessage } from "@hisob/i18n";
import type { TenantContext } from "@hisob/kernel";
import { createWarehouseServices, type WarehouseServices } from "@hisob/warehouse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFinanceServices, type FinanceServices } from "../finance-services";
// Importing a module registers its permissions (the warehouse's above), which the kit syncs into the
// database: a tenant's admin role holds them.
import "../finance.permissions";

/*
 * One stock truth between the warehouse and finance's inventory (inventory.service.ts): a SKU is
 * counted on one side only, both sides take the same (tenant, SKU) lock, so a race between them
 * writes exactly one. Through both modules' services over one database.
 */

let t: ServiceTestKit<{ finance: FinanceServices; warehouse: WarehouseServices }>;
let tenantId: string;
let admin: TenantContext;
let otherAdmin: TenantContext;
let sequence = 0;
const unique = (prefix: string) => `${prefix}-${++sequence}-${Math.random().toString(36).slice(2, 7)}`;

const product = (sku: string) => ({ sku, name: "Un 1 kg", price: "9000", currency: "UZS" });
const item = (sku: string) => ({ name: "Un 1 kg", sku, unit: "kg", unitPrice: "9000", currency: "UZS" });

beforeAll(async () => {
  t = await createServiceTestKit({
    services: (deps) => ({ finance: createFinanceServices(deps), warehouse: createWarehouseServices(deps) }),
  });
  tenantId = (await t.createTenant()).id;
  const otherTenantId = (await t.createTenant()).id;
  admin = await t.contextOf(await t.createUser(tenantId, "admin"));
  otherAdmin = await t.contextOf(await t.createUser(otherTenantId, "admin"));
  await t.services.currencies.setSelected(admin, { codes: ["UZS", "USD"] });
  await t.services.currencies.setSelected(otherAdmin, { codes: ["UZS"] });
});

afterAll(async () => {
  await t?.close();
});

describe("one stock truth between the warehouse and finance's inventory", () => {
  it("finance refuses a SKU the warehouse keeps (create and rename), and the warehouse one finance counts", async () => {
    const { inventory } = t.services.finance;
    const { products } = t.services.warehouse;
    const sku = unique("FLOUR");
    await products.create(admin, product(sku));
    expect(await refusalOf(inventory.create(admin, item(sku)))).toMatchObject({
      code: "CONFLICT",
      reason: "finance.inventory_sku_in_warehouse",
    });
    const other = await inventory.create(admin, item(`${sku}-B`));
    expect(await refusalOf(inventory.update(admin, other.id, { sku }))).toMatchObject({
      code: "CONFLICT",
      reason: "finance.inventory_sku_in_warehouse",
    });
    expect(await refusalOf(products.create(admin, product(`${sku}-B`)))).toMatchObject({
      code: "CONFLICT",
      reason: "warehouse.sku_in_finance_inventory",
    });
    // Another organization's warehouse is not this one's: the same SKU is free there.
    await inventory.create(otherAdmin, item(sku));
    // In the reader's language (the profile's, which the caller's context carries).
    const russianUser = await t.createUser(tenantId, "admin");
    await t.db.withTenant(tenantId, (tx) =>
      tx.user.update({ where: { id: russianUser.id }, data: { uiLanguage: "ru" } }),
    );
    const russian = await t.contextOf(russianUser);
    const refused = await refusalOf(inventory.create(russian, item(sku)));
    expect(
      errorMessage(russian.locale, refused.reason, refused.params as Parameters<typeof errorMessage>[2]),
    ).toContain("на складе");
  });

  it("a warehouse product and a finance item racing for the same SKU: exactly one is written", async () => {
    for (let round = 0; round < 5; round++) {
      const sku = unique("RACE");
      const outcomes = await Promise.allSettled([
        t.services.warehouse.products.create(admin, product(sku)),
        t.services.finance.inventory.create(admin, item(sku)),
      ]);
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
      const refused = outcomes.find((outcome) => outcome.status === "rejected");
      expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: "CONFLICT" });
    }
  });
});
