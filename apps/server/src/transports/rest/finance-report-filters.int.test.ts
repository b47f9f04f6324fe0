import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * The income statement limited to categories and counterparties (and accounts), alone and with a
 * comparison, over REST, tRPC and its .xlsx: the figures against a hand-computed ledger; another
 * organization's or an unknown id is 404, a malformed one 400
 * (docs/decisions/0088-report-filters-and-comparison.md).
 */

let t: TestApp;
let admin: SeededUser;
let other: SeededUser;
const ids = { cash: "", bank: "", sales: "", services: "", rent: "", alfa: "", beta: "" };
const foreign = { category: "", counterparty: "" };

const get = (url: string, who: SeededUser = admin) =>
  t.app.inject({ method: "GET", url, headers: who.headers });
const post = async (url: string, payload: Record<string, unknown>, who: SeededUser = admin) => {
  const res = await t.app.inject({ method: "POST", url, headers: who.headers, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
};
const FEBRUARY = "startDate=2026-02-01&endDate=2026-02-28";
const income = async (query: string) => {
  const res = await get(`/finance/reports/income-statement?${FEBRUARY}&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

beforeAll(async () => {
  t = await createTestApp();
  const tenant = await t.createTenant();
  admin = await t.createUser(tenant.id, "admin");
  ids.cash = (await post("/finance/accounts", { name: "Cash", currency: "UZS" })).id;
  ids.bank = (await post("/finance/accounts", { name: "Bank", currency: "UZS" })).id;
  ids.sales = (await post("/finance/payment-categories", { name: "Sales" })).id;
  ids.services = (await post("/finance/payment-categories", { name: "Services" })).id;
  ids.rent = (await post("/finance/expense-categories", { name: "Rent" })).id;
  ids.alfa = (await post("/finance/counterparties", { name: "Alfa" })).id;
  ids.beta = (await post("/finance/counterparties", { name: "Beta" })).id;
  const doc =
    (kind: "payments" | "expenses") =>
    (accountId: string, amount: string, date: string, categoryId?: string, counterpartyId?: string) =>
      post(`/finance/${kind}`, {
        accountId,
        amount,
        date,
        ...(categoryId ? { categoryId } : {}),
        ...(counterpartyId ? { counterpartyId } : {}),
      });
  const pay = doc("payments");
  const spend = doc("expenses");
  // January: the previous period.
  await pay(ids.cash, "100000", "2026-01-10", ids.sales, ids.alfa);
  await pay(ids.cash, "40000", "2026-01-12", ids.services, ids.beta);
  await spend(ids.cash, "10000", "2026-01-20", ids.rent, ids.alfa);
  // February: the report's period.
  await pay(ids.cash, "300000", "2026-02-02", ids.sales, ids.alfa);
  await pay(ids.bank, "50000", "2026-02-03", ids.sales, ids.beta);
  await pay(ids.cash, "70000", "2026-02-04", ids.services, ids.alfa);
  await pay(ids.bank, "20000", "2026-02-05");
  await spend(ids.cash, "60000", "2026-02-06", ids.rent, ids.alfa);
  await spend(ids.bank, "30000", "2026-02-07", ids.rent, ids.beta);
  await spend(ids.cash, "5000", "2026-02-08");
  // March: outside.
  await pay(ids.cash, "999000", "2026-03-01", ids.sales, ids.alfa);

  const otherTenant = await t.createTenant();
  other = await t.createUser(otherTenant.id, "admin");
  foreign.category = (await post("/finance/payment-categories", { name: "Theirs" }, other)).id;
  foreign.counterparty = (await post("/finance/counterparties", { name: "Theirs" }, other)).id;
});

afterAll(async () => {
  await t?.close();
});

describe("the income statement limited to categories and counterparties", () => {
  it("without them it is the ledger's as before; one category counts its payments or expenses only", async () => {
    expect((await income("")).currencies).toMatchObject([
      { currency: "UZS", revenue: "440000", expenses: "95000", netIncome: "345000" },
    ]);
    expect((await income(`categoryId=${ids.sales}`)).currencies).toEqual([
      {
        currency: "UZS",
        revenue: "350000",
        expenses: "0",
        netIncome: "350000",
        compared: [],
        revenueByCategory: [{ categoryId: ids.sales, categoryName: "Sales", amount: "350000" }],
        expensesByCategory: [],
        byMonth: [{ month: "2026-02", revenue: "350000", expenses: "0", netIncome: "350000" }],
      },
    ]);
  });

  it("several categories of both kinds, a counterparty, and all three filters with an account", async () => {
    expect((await income(`categoryId=${ids.sales}&categoryId=${ids.rent}`)).currencies).toMatchObject([
      {
        revenue: "350000",
        expenses: "90000",
        netIncome: "260000",
        expensesByCategory: [{ categoryId: ids.rent, amount: "90000" }],
      },
    ]);
    expect((await income(`counterpartyId=${ids.alfa}`)).currencies).toMatchObject([
      {
        revenue: "370000",
        expenses: "60000",
        netIncome: "310000",
        revenueByCategory: [
          { categoryId: ids.sales, amount: "300000" },
          { categoryId: ids.services, amount: "70000" },
        ],
        expensesByCategory: [{ categoryId: ids.rent, amount: "60000" }],
      },
    ]);
    const narrow = await income(`counterpartyId=${ids.alfa}&categoryId=${ids.sales}&accountId=${ids.bank}`);
    expect(narrow.currencies).toEqual([]);
    expect(
      (await income(`counterpartyId=${ids.beta}&counterpartyId=${ids.alfa}&accountId=${ids.bank}`))
        .currencies,
    ).toMatchObject([{ revenue: "50000", expenses: "30000", netIncome: "20000" }]);
  });

  it("a comparison runs the same filters over the compared period", async () => {
    const report = await income(`counterpartyId=${ids.alfa}&compare=previousPeriod`);
    expect(report.comparedPeriods).toEqual([
      { compare: "previousPeriod", startDate: "2026-01-01", endDate: "2026-01-31" },
    ]);
    expect(report.currencies[0].compared).toEqual([
      {
        compare: "previousPeriod",
        revenue: { value: "100000", change: "270000", changePercent: "270.00" },
        expenses: { value: "10000", change: "50000", changePercent: "500.00" },
        netIncome: { value: "90000", change: "220000", changePercent: "244.44" },
      },
    ]);
    // Nothing of Beta's services in February, some in January: a section of zeros beside them.
    const gone = await income(`counterpartyId=${ids.beta}&categoryId=${ids.services}&compare=previousPeriod`);
    expect(gone.currencies).toMatchObject([
      {
        currency: "UZS",
        revenue: "0",
        compared: [{ revenue: { value: "40000", change: "-40000", changePercent: "-100.00" } }],
      },
    ]);
  });

  it("tRPC takes the same filters (the app's queries)", async () => {
    const input = encodeURIComponent(
      JSON.stringify({
        startDate: "2026-02-01",
        endDate: "2026-02-28",
        accountId: [ids.cash],
        categoryId: [ids.sales, ids.services],
        counterpartyId: [ids.alfa],
        compare: "previousYear",
      }),
    );
    const res = await get(`/trpc/reports.incomeStatement?input=${input}`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().result.data;
    expect(data.comparedPeriods).toEqual([
      { compare: "previousYear", startDate: "2025-02-01", endDate: "2025-02-28" },
    ]);
    expect(data.currencies).toMatchObject([
      { revenue: "370000", expenses: "0", compared: [{ revenue: { value: "0", changePercent: null } }] },
    ]);
  });

  it("the .xlsx takes the filters and the comparison: its Comparison sheet has the filtered figures", async () => {
    const res = await get(
      `/finance/reports/income-statement/export?${FEBRUARY}&counterpartyId=${ids.alfa}&compare=previousPeriod`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[book.worksheets.length - 1] as ExcelJS.Worksheet;
    expect(sheet.name).toBe("Comparison");
    const rows: unknown[][] = [];
    sheet.eachRow((row, number) => {
      if (number > 1) rows.push((row.values as unknown[]).slice(1));
    });
    expect(rows.map((row) => [row[2], row[4], row[5], row[6], row[7]])).toEqual([
      ["Revenue", 3700, 1000, 2700, "270.00"],
      ["Expenses", 600, 100, 500, "500.00"],
      ["Net income", 3100, 900, 2200, "244.44"],
    ]);
  });

  it("another organization's or an unknown category or counterparty is 404; a malformed id 400", async () => {
    const notFound = async (query: string, reason: string) => {
      const res = await get(`/finance/reports/income-statement?${FEBRUARY}&${query}`);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().error.reason).toBe(reason);
    };
    await notFound(`categoryId=${foreign.category}`, "finance.category_not_found");
    await notFound(`categoryId=${ids.sales}&categoryId=${foreign.category}`, "finance.category_not_found");
    await notFound(`counterpartyId=${foreign.counterparty}`, "finance.counterparty_not_found");
    await notFound("counterpartyId=00000000-0000-7000-8000-000000000000", "finance.counterparty_not_found");
    const export404 = await get(
      `/finance/reports/income-statement/export?${FEBRUARY}&categoryId=${foreign.category}`,
    );
    expect(export404.statusCode, export404.body).toBe(404);
    for (const [field, value] of [
      ["categoryId", "not-a-uuid"],
      ["counterpartyId", "1"],
    ]) {
      const res = await get(`/finance/reports/income-statement?${FEBRUARY}&${field}=${value}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.issues.map((issue: { path: string }) => issue.path)).toContain(field);
    }
    // Their own ids are theirs: the other tenant sees its (empty) report.
    const theirs = await get(
      `/finance/reports/income-statement?${FEBRUARY}&categoryId=${foreign.category}`,
      other,
    );
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.json().currencies).toEqual([]);
  });
});
