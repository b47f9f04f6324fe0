import { refusalOf } from "@hisob/core/testing";
import type { TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFinanceTestKit, type FinanceTestKit } from "../finance-test-kit";
import type { TDebtHistoryEntryDto } from "./debts.schema";

/*
 * A debt's history (read from the audit log, see debt-history.ts) and the list's `open` filter,
 * through the finance services, on whichever database the run uses.
 */

let t: FinanceTestKit;
let tenant: { id: string };
let admin: TenantContext;
let adminId: string;
let reader: TenantContext;
let account: { id: string };
let counterparty: { id: string };
const TODAY = "2026-11-22";
const MISSING_ID = "00000000-0000-7000-8000-000000000000";

const debts = () => t.services.finance.debts;
const createDebt = (body: Record<string, unknown> = {}) =>
  debts().create(admin, {
    kind: "receivable",
    counterpartyId: counterparty.id,
    amount: "1000",
    currency: "UZS",
    ...body,
  } as never);

beforeAll(async () => {
  t = await createFinanceTestKit();
  tenant = await t.createTenant();
  const adminUser = await t.createUser(tenant.id, "admin");
  adminId = adminUser.id;
  admin = await t.contextOf(adminUser);
  reader = await t.contextOf(await t.createUser(tenant.id, ["debts:read:all"]));
  await t.services.currencies.setSelected(admin, { codes: ["UZS"] });
  account = await t.services.finance.accounts.create(admin, { name: "Cash", currency: "UZS" });
  counterparty = await t.services.finance.counterparties.create(admin, { name: "Debtor" });
});

afterAll(async () => {
  await t?.close();
});

describe("a debt's history", () => {
  it("lists creation, settlements, a reversal, an edit and the write-off, oldest first, with who", async () => {
    const debt = await createDebt({ dueDate: "2026-12-31" });
    const settled = await debts().settle(admin, debt.id, {
      amount: "300",
      accountId: account.id,
      date: "2026-11-02",
    });
    const settlementId = settled.settlement.id;
    await debts().reverseSettlement(admin, debt.id, settlementId);
    await debts().update(admin, debt.id, { description: "Invoice 7" });
    await debts().writeOff(admin, debt.id, { reason: "Company closed" });

    // A user who may only read debts reads it too.
    const history = await debts().history(reader, debt.id);
    expect(history.map((entry) => entry.action)).toEqual([
      "created",
      "settled",
      "settlement_reversed",
      "updated",
      "written_off",
    ]);
    const [created, settle, reversal, edit, writeOff] = history as [
      TDebtHistoryEntryDto,
      TDebtHistoryEntryDto,
      TDebtHistoryEntryDto,
      TDebtHistoryEntryDto,
      TDebtHistoryEntryDto,
    ];
    expect(created).toMatchObject({ amount: "1000", userId: adminId });
    expect(created.userName).toBeTruthy();
    expect(settle).toMatchObject({ amount: "300", date: "2026-11-02", settlementId });
    expect(reversal).toMatchObject({ amount: "300", date: "2026-11-02", settlementId });
    expect(edit.fields).toContain("description");
    expect(writeOff).toMatchObject({ amount: "1000", reason: "Company closed", userId: adminId });
    const times = history.map((entry) => entry.at);
    expect([...times].sort()).toEqual(times);
  });

  it("is NOT_FOUND for an unknown debt and another tenant's, FORBIDDEN without debts:read:all", async () => {
    const debt = await createDebt();
    const other = await t.createTenant();
    const otherAdmin = await t.contextOf(await t.createUser(other.id, "admin"));
    expect(await refusalOf(debts().history(admin, MISSING_ID))).toMatchObject({
      code: "NOT_FOUND",
      reason: "finance.debt_not_found",
    });
    expect(await refusalOf(debts().history(otherAdmin, debt.id))).toMatchObject({
      code: "NOT_FOUND",
      reason: "finance.debt_not_found",
    });
    const stranger = await t.contextOf(await t.createUser(tenant.id, ["payments:read:all"]));
    expect((await refusalOf(debts().history(stranger, debt.id))).code).toBe("FORBIDDEN");
  });
});

describe("the list's open filter", () => {
  it("open=true keeps pending and partial debts, open=false settled and written-off ones", async () => {
    const pending = await createDebt({ dueDate: "2020-01-01" });
    const partial = await createDebt({ dueDate: "2020-01-02" });
    await debts().settle(admin, partial.id, { amount: "1", accountId: account.id, date: TODAY });
    const closed = await createDebt({ dueDate: "2020-01-03" });
    await debts().writeOff(admin, closed.id, { reason: "Gone" });
    const ids = async (query: Record<string, unknown>) =>
      (await debts().list(admin, { limit: 100, ...query } as never)).items.map((debt) => debt.id);
    const overdue = await ids({ open: "true", dueBefore: "2020-02-01" });
    expect(overdue).toEqual(expect.arrayContaining([pending.id, partial.id]));
    expect(overdue).not.toContain(closed.id);
    expect(await ids({ open: "false", dueBefore: "2020-02-01" })).toEqual([closed.id]);
    expect(await ids({ open: true, status: "partial", dueBefore: "2020-02-01" })).toEqual([partial.id]);
    expect((await refusalOf(debts().list(admin, { open: "maybe" } as never))).code).toBe("VALIDATION_ERROR");
  });
});
