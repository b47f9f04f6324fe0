import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, expectError, MISSING_ID, TODAY } from "../../testing/finance-records";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * A debt's history over REST (read from the audit log, see debt-history.ts) and the list's `open`
 * filter, on whichever database the run uses.
 */

let t: TestApp;
let tenant: { id: string };
let admin: SeededUser;
let reader: SeededUser;
let account: { id: string };
let counterparty: { id: string };
const call = caller(() => t);

type HistoryEntry = {
  action: string;
  at: string;
  userId: string | null;
  userName: string | null;
  amount: string | null;
  date: string | null;
  settlementId: string | null;
  reason: string | null;
  fields: string[];
};

const createDebt = async (body: Record<string, unknown> = {}) => {
  const res = await call(admin, "POST", "/finance/debts", {
    kind: "receivable",
    counterpartyId: counterparty.id,
    amount: "1000",
    currency: "UZS",
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; status: string };
};

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.createTenant();
  admin = await t.createUser(tenant.id, "admin");
  reader = await t.createUser(tenant.id, ["debts:read:all"]);
  expect((await call(admin, "PUT", "/tenant/currencies", { codes: ["UZS"] })).statusCode).toBe(200);
  account = (await call(admin, "POST", "/finance/accounts", { name: "Cash", currency: "UZS" })).json();
  counterparty = (await call(admin, "POST", "/finance/counterparties", { name: "Debtor" })).json();
});

afterAll(async () => {
  await t?.close();
});

describe("a debt's history", () => {
  it("lists creation, settlements, a reversal, an edit and the write-off, oldest first, with who", async () => {
    const debt = await createDebt({ dueDate: "2026-12-31" });
    const settled = await call(admin, "POST", `/finance/debts/${debt.id}/settle`, {
      amount: "300",
      accountId: account.id,
      date: "2026-11-02",
    });
    expect(settled.statusCode, settled.body).toBe(201);
    const settlementId = settled.json().settlement.id as string;
    const reversed = await call(admin, "DELETE", `/finance/debts/${debt.id}/settlements/${settlementId}`);
    expect(reversed.statusCode, reversed.body).toBe(200);
    const edited = await call(admin, "PUT", `/finance/debts/${debt.id}`, { description: "Invoice 7" });
    expect(edited.statusCode, edited.body).toBe(200);
    const writtenOff = await call(admin, "POST", `/finance/debts/${debt.id}/write-off`, {
      reason: "Company closed",
    });
    expect(writtenOff.statusCode, writtenOff.body).toBe(200);

    // A user who may only read debts reads it too.
    const res = await call(reader, "GET", `/finance/debts/${debt.id}/history`);
    expect(res.statusCode, res.body).toBe(200);
    const history = res.json() as HistoryEntry[];
    expect(history.map((entry) => entry.action)).toEqual([
      "created",
      "settled",
      "settlement_reversed",
      "updated",
      "written_off",
    ]);
    const [created, settle, reversal, edit, writeOff] = history as [
      HistoryEntry,
      HistoryEntry,
      HistoryEntry,
      HistoryEntry,
      HistoryEntry,
    ];
    expect(created).toMatchObject({ amount: "1000", userId: admin.id });
    expect(created.userName).toBeTruthy();
    expect(settle).toMatchObject({ amount: "300", date: "2026-11-02", settlementId });
    expect(reversal).toMatchObject({ amount: "300", date: "2026-11-02", settlementId });
    expect(edit.fields).toContain("description");
    expect(writeOff).toMatchObject({ amount: "1000", reason: "Company closed", userId: admin.id });
    const times = history.map((entry) => entry.at);
    expect([...times].sort()).toEqual(times);
  });

  it("is NOT_FOUND for an unknown debt and another tenant's, FORBIDDEN without debts:read:all", async () => {
    const debt = await createDebt();
    const other = await t.createTenant();
    const otherAdmin = await t.createUser(other.id, "admin");
    expectError(
      await call(admin, "GET", `/finance/debts/${MISSING_ID}/history`),
      404,
      "NOT_FOUND",
      "finance.debt_not_found",
    );
    expectError(
      await call(otherAdmin, "GET", `/finance/debts/${debt.id}/history`),
      404,
      "NOT_FOUND",
      "finance.debt_not_found",
    );
    const stranger = await t.createUser(tenant.id, ["payments:read:all"]);
    expect((await call(stranger, "GET", `/finance/debts/${debt.id}/history`)).statusCode).toBe(403);
  });
});

describe("the list's open filter", () => {
  it("open=true keeps pending and partial debts, open=false settled and written-off ones", async () => {
    const pending = await createDebt({ dueDate: "2020-01-01" });
    const partial = await createDebt({ dueDate: "2020-01-02" });
    await call(admin, "POST", `/finance/debts/${partial.id}/settle`, {
      amount: "1",
      accountId: account.id,
      date: TODAY,
    });
    const closed = await createDebt({ dueDate: "2020-01-03" });
    await call(admin, "POST", `/finance/debts/${closed.id}/write-off`, { reason: "Gone" });
    const ids = async (query: string) =>
      ((await call(admin, "GET", `/finance/debts?limit=100&${query}`)).json().items as { id: string }[]).map(
        (debt) => debt.id,
      );
    const overdue = await ids("open=true&dueBefore=2020-02-01");
    expect(overdue).toEqual(expect.arrayContaining([pending.id, partial.id]));
    expect(overdue).not.toContain(closed.id);
    expect(await ids("open=false&dueBefore=2020-02-01")).toEqual([closed.id]);
    expect(await ids("open=true&status=partial&dueBefore=2020-02-01")).toEqual([partial.id]);
    expectError(await call(admin, "GET", "/finance/debts?open=maybe"), 400, "VALIDATION_ERROR");
  });
});
