import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, expectError, expectFieldError } from "../../testing/finance-records";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * Opening balances against a hand-computed fixture. A firm moves its books here on 2026-01-01:
 *   Kassa (UZS) already holds 15 000.00 (1 500 000 tiyin) as of 2026-01-01 — inside January;
 *   Bank (USD, overdraft allowed) starts owing 200.00 (−20 000 cents) as of 2025-12-31 — before it.
 * Then in January: Kassa +3 000.00 payment (01-10), −1 200.00 expense (01-20); Bank +500.00 payment (01-15).
 * By hand: Kassa closes 15 000 + 3 000 − 1 200 = 16 800.00; Bank closes −200 + 500 = 300.00.
 * Revenue: 3 000.00 UZS and 500.00 USD; expenses 1 200.00 UZS: the opening balances are neither.
 */

let t: TestApp;
let admin: SeededUser;
let clerk: SeededUser;
let stranger: SeededUser;
const ids = { kassa: "", bank: "", spare: "" };
const call = caller(() => t);
const JANUARY = "startDate=2026-01-01&endDate=2026-01-31";

const post = async (url: string, payload: Record<string, unknown>) => {
  const res = await call(admin, "POST", url, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};
const setOpening = (id: string, body: Record<string, unknown>, who = admin) =>
  call(who, "PUT", `/finance/accounts/${id}/opening-balance`, body);
const balanceOf = async (id: string) => (await call(admin, "GET", `/finance/accounts/${id}`)).json().balance;
const get = async (url: string) => {
  const res = await call(admin, "GET", url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

beforeAll(async () => {
  t = await createTestApp();
  const tenant = await t.createTenant();
  admin = await t.createUser(tenant.id, "admin");
  clerk = await t.createUser(tenant.id, ["accounts:read:all"]);
  stranger = await t.createUser((await t.createTenant()).id, "admin");
  expect((await call(admin, "PUT", "/tenant/currencies", { codes: ["UZS", "USD"] })).statusCode).toBe(200);
  ids.kassa = (await post("/finance/accounts", { name: "Kassa", currency: "UZS" })).id;
  ids.bank = (await post("/finance/accounts", { name: "Bank", currency: "USD", allowOverdraft: true })).id;
  ids.spare = (await post("/finance/accounts", { name: "Spare", currency: "UZS" })).id;
});

afterAll(async () => {
  await t?.close();
});

describe("setting an opening balance", () => {
  it("is editable while nothing else is posted: the balance follows each change", async () => {
    let res = await setOpening(ids.kassa, { amount: "1000000", date: "2026-01-05" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      accountId: ids.kassa,
      amount: "1000000",
      date: "2026-01-05",
      isEditable: true,
    });
    expect(await balanceOf(ids.kassa)).toBe("1000000");
    // A correction: another amount and day.
    res = await setOpening(ids.kassa, {
      amount: "1500000",
      date: "2026-01-01",
      comment: "From the old books",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await balanceOf(ids.kassa)).toBe("1500000");
    expect(await get(`/finance/accounts/${ids.kassa}/opening-balance`)).toMatchObject({
      amount: "1500000",
      date: "2026-01-01",
      comment: "From the old books",
      isEditable: true,
    });
    // One entry of its own type, never two.
    const entries = await get(`/finance/accounts/${ids.kassa}/transactions`);
    expect(entries.items.map((e: { type: string }) => e.type)).toEqual(["opening_balance"]);

    // An account that starts owing (overdraft allowed): the entry leaves the account.
    res = await setOpening(ids.bank, { amount: "-20000", date: "2025-12-31" });
    expect(res.statusCode, res.body).toBe(200);
    expect(await balanceOf(ids.bank)).toBe("-20000");
  });

  it("amount 0 removes it; without overdraft it cannot be negative", async () => {
    expect((await setOpening(ids.spare, { amount: "700", date: "2026-01-01" })).statusCode).toBe(200);
    expect(await balanceOf(ids.spare)).toBe("700");
    expect((await setOpening(ids.spare, { amount: "0", date: "2026-01-01" })).statusCode).toBe(204);
    expect(await balanceOf(ids.spare)).toBe("0");
    expectError(
      await call(admin, "GET", `/finance/accounts/${ids.spare}/opening-balance`),
      404,
      "NOT_FOUND",
      "finance.opening_balance_not_found",
    );
    expectFieldError(
      await setOpening(ids.spare, { amount: "-1", date: "2026-01-01" }),
      "amount",
      "finance.opening_negative",
    );
    for (const body of [
      { amount: "1" },
      { amount: "1.5", date: "2026-01-01" },
      { amount: "1", date: "2026-13-01" },
      { amount: "1", date: "2026-01-01", extra: 1 },
    ]) {
      expectError(await setOpening(ids.spare, body), 400, "VALIDATION_ERROR");
    }
    expect(await balanceOf(ids.spare)).toBe("0");
  });

  it("needs accounts:update:all (reading needs accounts:read:all); another tenant's account is not found", async () => {
    expectError(await setOpening(ids.spare, { amount: "1", date: "2026-01-01" }, clerk), 403, "FORBIDDEN");
    expect((await call(clerk, "GET", `/finance/accounts/${ids.kassa}/opening-balance`)).statusCode).toBe(200);
    expectError(await setOpening(ids.kassa, { amount: "1", date: "2026-01-01" }, stranger), 404, "NOT_FOUND");
    expectError(
      await call(stranger, "GET", `/finance/accounts/${ids.kassa}/opening-balance`),
      404,
      "NOT_FOUND",
    );
    expectError(
      await call(null, "PUT", `/finance/accounts/${ids.kassa}/opening-balance`, {
        amount: "1",
        date: "2026-01-01",
      }),
      401,
      "UNAUTHENTICATED",
    );
  });
});

describe("over tRPC", () => {
  it("accounts.setOpeningBalance and accounts.openingBalance call the same service", async () => {
    const trpc = (method: "GET" | "POST", procedure: string, input: unknown) =>
      t.app.inject({
        method,
        url:
          method === "GET"
            ? `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`
            : `/trpc/${procedure}`,
        headers: { ...admin.headers, ...(method === "POST" ? { "content-type": "application/json" } : {}) },
        ...(method === "POST" ? { payload: JSON.stringify(input) } : {}),
      });
    const set = await trpc("POST", "accounts.setOpeningBalance", {
      id: ids.spare,
      data: { amount: "4200", date: "2026-01-02" },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().result.data).toMatchObject({ amount: "4200", isEditable: true });
    const read = await trpc("GET", "accounts.openingBalance", { id: ids.spare });
    expect(read.json().result.data).toMatchObject({ amount: "4200", date: "2026-01-02" });
    const removed = await trpc("POST", "accounts.setOpeningBalance", {
      id: ids.spare,
      data: { amount: "0", date: "2026-01-02" },
    });
    expect(removed.json().result.data).toBeNull();
    expect(await balanceOf(ids.spare)).toBe("0");
  });
});

describe("once other entries are posted", () => {
  beforeAll(async () => {
    await post("/finance/payments", { accountId: ids.kassa, amount: "300000", date: "2026-01-10" });
    await post("/finance/expenses", { accountId: ids.kassa, amount: "120000", date: "2026-01-20" });
    await post("/finance/payments", { accountId: ids.bank, amount: "50000", date: "2026-01-15" });
  });

  it("the opening balance is part of the books: changing or removing it is refused", async () => {
    for (const amount of ["1600000", "0"]) {
      expectError(
        await setOpening(ids.kassa, { amount, date: "2026-01-01" }),
        422,
        "BUSINESS_RULE",
        "finance.opening_balance_locked",
      );
    }
    expect(await get(`/finance/accounts/${ids.kassa}/opening-balance`)).toMatchObject({
      amount: "1500000",
      isEditable: false,
    });
    expect(await balanceOf(ids.kassa)).toBe("1680000");
    expect(await balanceOf(ids.bank)).toBe("30000");
  });

  it("account statement: the opening balance opens the period; the entries and running balances follow", async () => {
    const statement = await get(`/finance/reports/account-statement/${ids.kassa}?${JANUARY}`);
    expect(statement).toMatchObject({ openingBalance: "1500000", closingBalance: "1680000", total: 2 });
    expect(
      statement.entries.map((e: { type: string; change: string; runningBalance: string }) => [
        e.type,
        e.change,
        e.runningBalance,
      ]),
    ).toEqual([
      ["income", "300000", "1800000"],
      ["expense", "-120000", "1680000"],
    ]);
    // Before the books moved here, the account held nothing.
    const december = await get(
      `/finance/reports/account-statement/${ids.kassa}?startDate=2025-12-01&endDate=2025-12-31`,
    );
    expect(december).toMatchObject({ openingBalance: "0", closingBalance: "0", total: 0 });
    // The Bank's opening (2025-12-31) is before January: January opens owing.
    const bank = await get(`/finance/reports/account-statement/${ids.bank}?${JANUARY}`);
    expect(bank).toMatchObject({ openingBalance: "-20000", closingBalance: "30000", total: 1 });
  });

  it("cash flow: the opening balance is the opening, never an inflow; periods and totals agree", async () => {
    const report = await get(
      `/finance/reports/cashflow?${JANUARY}&granularity=month&accountId=${ids.kassa}&accountId=${ids.bank}`,
    );
    const byName = Object.fromEntries(report.accounts.map((a: { name: string }) => [a.name, a]));
    expect(byName.Kassa).toMatchObject({
      openingBalance: "1500000",
      inflows: "300000",
      outflows: "120000",
      income: "300000",
      expense: "120000",
      closingBalance: "1680000",
      periods: [
        { period: "2026-01", openingBalance: "1500000", closingBalance: "1680000", inflows: "300000" },
      ],
    });
    expect(byName.Bank).toMatchObject({
      openingBalance: "-20000",
      inflows: "50000",
      outflows: "0",
      closingBalance: "30000",
    });
    expect(report.totals).toEqual([
      expect.objectContaining({ currency: "USD", openingBalance: "-20000", closingBalance: "30000" }),
      expect.objectContaining({ currency: "UZS", openingBalance: "1500000", closingBalance: "1680000" }),
    ]);
  });

  it("cash flow ending before later entries: the closing is the balance less them; opening + flows = closing", async () => {
    // Kassa's opening balance (01-01) lies inside the range, its expense (01-20) after it; the
    // Bank's opening (2025-12-31) before it, its payment (01-15) after it.
    const report = await get(
      `/finance/reports/cashflow?startDate=2026-01-01&endDate=2026-01-14&granularity=week&accountId=${ids.kassa}&accountId=${ids.bank}`,
    );
    const byName = Object.fromEntries(report.accounts.map((a: { name: string }) => [a.name, a]));
    // 1 680 000 stored − (−120 000 after the end) = 1 800 000 = 1 500 000 opening + 300 000 in.
    expect(byName.Kassa).toMatchObject({
      openingBalance: "1500000",
      inflows: "300000",
      outflows: "0",
      closingBalance: "1800000",
    });
    expect(BigInt(await balanceOf(ids.kassa)) - -120000n).toBe(1800000n);
    expect(
      byName.Kassa.periods.map((p: Record<string, string>) => [
        p.period,
        p.startDate,
        p.endDate,
        p.openingBalance,
        p.inflows,
        p.closingBalance,
      ]),
    ).toEqual([
      ["2026-W01", "2026-01-01", "2026-01-04", "1500000", "0", "1500000"],
      ["2026-W02", "2026-01-05", "2026-01-11", "1500000", "300000", "1800000"],
      ["2026-W03", "2026-01-12", "2026-01-14", "1800000", "0", "1800000"],
    ]);
    // 30 000 stored − 50 000 after the end.
    expect(byName.Bank).toMatchObject({
      openingBalance: "-20000",
      inflows: "0",
      outflows: "0",
      closingBalance: "-20000",
    });
    for (const account of report.accounts) {
      expect(BigInt(account.openingBalance) + BigInt(account.inflows) - BigInt(account.outflows)).toBe(
        BigInt(account.closingBalance),
      );
    }
    // Before the books moved here: the Bank's opening balance, dated after this range, is a later
    // entry like any other, so the range opens and closes at nothing.
    const december = await get(
      `/finance/reports/cashflow?startDate=2025-12-01&endDate=2025-12-30&granularity=month&accountId=${ids.bank}`,
    );
    expect(december.accounts).toEqual([
      expect.objectContaining({ openingBalance: "0", inflows: "0", outflows: "0", closingBalance: "0" }),
    ]);
    // A range after the opening balance: it opens where the payment left Kassa.
    const later = await get(
      `/finance/reports/cashflow?startDate=2026-01-11&endDate=2026-01-19&granularity=month&accountId=${ids.kassa}`,
    );
    expect(later.accounts).toEqual([
      expect.objectContaining({ openingBalance: "1800000", inflows: "0", closingBalance: "1800000" }),
    ]);
  });

  it("income statement: the opening balances are neither revenue nor expense", async () => {
    const statement = await get(`/finance/reports/income-statement?startDate=2025-12-01&endDate=2026-01-31`);
    expect(
      statement.currencies.map(
        (c: { currency: string; revenue: string; expenses: string; netIncome: string }) => [
          c.currency,
          c.revenue,
          c.expenses,
          c.netIncome,
        ],
      ),
    ).toEqual([
      ["USD", "50000", "0", "50000"],
      ["UZS", "300000", "120000", "180000"],
    ]);
  });

  it("reconcile agrees: the stored balances equal the ledger, opening entries included", async () => {
    const report = await get("/finance/reconcile");
    expect(report).toMatchObject({ ok: true, drift: [], mismatchedDocuments: [] });
  });
});
