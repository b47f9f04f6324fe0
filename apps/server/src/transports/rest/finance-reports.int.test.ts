import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * Reports against a hand-computed ledger (incomes, expenses, a transfer, an exchange with
 * truncation, two currencies, postings just outside the period), then against random postings:
 * closing balances must equal the stored balances.
 */

let t: TestApp;
let tenantId: string;
let admin: SeededUser;
let other: SeededUser;
const ids: Record<"cash" | "bank" | "usd", string> = { cash: "", bank: "", usd: "" };
let sales = "";
let rent = "";

type Caller = SeededUser | null;
const get = (caller: Caller, url: string) =>
  t.app.inject({ method: "GET", url, ...(caller ? { headers: caller.headers } : {}) });
const post = async (url: string, payload: Record<string, unknown>, caller: SeededUser = admin) => {
  const res = await t.app.inject({ method: "POST", url, headers: caller.headers, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};
const PERIOD = "startDate=2026-01-01&endDate=2026-02-28";

beforeAll(async () => {
  t = await createTestApp();
  const tenant = await t.createTenant();
  tenantId = tenant.id;
  admin = await t.createUser(tenant.id, "admin");
  await t.app.inject({
    method: "PUT",
    url: "/tenant/currencies",
    headers: admin.headers,
    payload: { codes: ["UZS", "USD"] },
  });
  ids.cash = (await post("/finance/accounts", { name: "Cash", currency: "UZS" })).id;
  ids.bank = (await post("/finance/accounts", { name: "Bank", currency: "UZS" })).id;
  ids.usd = (await post("/finance/accounts", { name: "Dollars", currency: "USD", allowOverdraft: true })).id;
  // Categories are plain rows here (their routes belong to the finance-records suite).
  await t.db.withTenant(tenantId, async (tx) => {
    sales = (await tx.paymentCategory.create({ data: { tenantId, name: "Sales" } })).id;
    rent = (await tx.expenseCategory.create({ data: { tenantId, name: "Rent" } })).id;
  });
  const pay = (accountId: string, amount: string, date: string, categoryId?: string) =>
    post("/finance/payments", { accountId, amount, date, ...(categoryId ? { categoryId } : {}) });
  const spend = (accountId: string, amount: string, date: string, categoryId?: string) =>
    post("/finance/expenses", { accountId, amount, date, ...(categoryId ? { categoryId } : {}) });

  await pay(ids.cash, "50000", "2025-12-31"); // before the period: part of the opening balance
  await pay(ids.cash, "1000000", "2026-01-05", sales);
  await pay(ids.bank, "500000", "2026-01-20");
  await spend(ids.cash, "200000", "2026-01-25", rent);
  await post("/finance/transfers", {
    fromAccountId: ids.cash,
    toAccountId: ids.bank,
    amount: "300000",
    date: "2026-02-03",
  });
  await pay(ids.usd, "10000", "2026-02-10", sales);
  // 5 000 × 126.5057 = 632 528.5 → 632 528 (truncated)
  await post("/finance/exchanges", {
    fromAccountId: ids.usd,
    toAccountId: ids.cash,
    amount: "5000",
    rate: "126.5057",
    confirmRate: true,
    date: "2026-02-15",
  });
  await spend(ids.bank, "100000", "2026-02-28", rent); // the last day: inside
  await spend(ids.usd, "1000", "2026-03-01"); // the day after: outside

  const otherTenant = await t.createTenant();
  other = await t.createUser(otherTenant.id, "admin");
});

afterAll(async () => {
  await t?.close();
});

describe("income statement", () => {
  it("sums income and expense transactions of the period per currency, by category and by month", async () => {
    const res = await get(admin, `/finance/reports/income-statement?${PERIOD}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      startDate: "2026-01-01",
      endDate: "2026-02-28",
      accountIds: null,
      comparedPeriods: [],
      currencies: [
        {
          currency: "USD",
          revenue: "10000",
          expenses: "0",
          netIncome: "10000",
          compared: [],
          revenueByCategory: [{ categoryId: sales, categoryName: "Sales", amount: "10000" }],
          expensesByCategory: [],
          byMonth: [{ month: "2026-02", revenue: "10000", expenses: "0", netIncome: "10000" }],
        },
        {
          currency: "UZS",
          revenue: "1500000",
          expenses: "300000",
          netIncome: "1200000",
          compared: [],
          revenueByCategory: [
            { categoryId: sales, categoryName: "Sales", amount: "1000000" },
            { categoryId: null, categoryName: null, amount: "500000" },
          ],
          expensesByCategory: [{ categoryId: rent, categoryName: "Rent", amount: "300000" }],
          byMonth: [
            { month: "2026-01", revenue: "1500000", expenses: "200000", netIncome: "1300000" },
            { month: "2026-02", revenue: "0", expenses: "100000", netIncome: "-100000" },
          ],
        },
      ],
    });
  });

  it("period edges are inclusive; one account narrows it; an empty period is empty", async () => {
    const lastDayOut = (
      await get(admin, "/finance/reports/income-statement?startDate=2026-01-01&endDate=2026-02-27")
    ).json();
    expect(lastDayOut.currencies.find((c: { currency: string }) => c.currency === "UZS").expenses).toBe(
      "200000",
    );
    const oneDay = (
      await get(admin, "/finance/reports/income-statement?startDate=2026-01-05&endDate=2026-01-05")
    ).json();
    expect(oneDay.currencies).toMatchObject([{ currency: "UZS", revenue: "1000000", expenses: "0" }]);
    const bankOnly = (
      await get(admin, `/finance/reports/income-statement?${PERIOD}&accountId=${ids.bank}`)
    ).json();
    expect(bankOnly).toMatchObject({
      accountIds: [ids.bank],
      currencies: [{ currency: "UZS", revenue: "500000", expenses: "100000", netIncome: "400000" }],
    });
    const two = (
      await get(
        admin,
        `/finance/reports/income-statement?${PERIOD}&accountId=${ids.bank}&accountId=${ids.usd}`,
      )
    ).json();
    expect(two.currencies.map((c: { currency: string }) => c.currency)).toEqual(["USD", "UZS"]);
    const empty = (
      await get(admin, "/finance/reports/income-statement?startDate=2030-01-01&endDate=2030-12-31")
    ).json();
    expect(empty.currencies).toEqual([]);
  });
});

describe("cash flow", () => {
  it("gives opening and closing balances, flows by kind and period, and movements between accounts", async () => {
    const res = await get(admin, `/finance/reports/cashflow?${PERIOD}&granularity=month`);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    const zero = { transfersIn: "0", transfersOut: "0", exchangesIn: "0", exchangesOut: "0" };
    const noFlows = { inflows: "0", outflows: "0", income: "0", expense: "0", ...zero };
    const january = { period: "2026-01", startDate: "2026-01-01", endDate: "2026-01-31" };
    const february = { period: "2026-02", startDate: "2026-02-01", endDate: "2026-02-28" };
    // Listed by currency, then name.
    expect(report.accounts.map((a: { name: string }) => a.name)).toEqual(["Dollars", "Bank", "Cash"]);
    const byName = [...report.accounts].sort((a: { name: string }, b: { name: string }) =>
      a.name < b.name ? -1 : 1,
    );
    expect(byName).toEqual([
      {
        accountId: ids.bank,
        compared: [],
        name: "Bank",
        currency: "UZS",
        openingBalance: "0",
        closingBalance: "700000",
        inflows: "800000",
        outflows: "100000",
        income: "500000",
        expense: "100000",
        ...zero,
        transfersIn: "300000",
        periods: [
          {
            ...january,
            openingBalance: "0",
            closingBalance: "500000",
            inflows: "500000",
            outflows: "0",
            income: "500000",
            expense: "0",
            ...zero,
          },
          {
            ...february,
            openingBalance: "500000",
            closingBalance: "700000",
            inflows: "300000",
            outflows: "100000",
            income: "0",
            expense: "100000",
            ...zero,
            transfersIn: "300000",
          },
        ],
      },
      {
        accountId: ids.cash,
        compared: [],
        name: "Cash",
        currency: "UZS",
        openingBalance: "50000",
        closingBalance: "1182528",
        inflows: "1632528",
        outflows: "500000",
        income: "1000000",
        expense: "200000",
        ...zero,
        transfersOut: "300000",
        exchangesIn: "632528",
        periods: [
          {
            ...january,
            openingBalance: "50000",
            closingBalance: "850000",
            inflows: "1000000",
            outflows: "200000",
            income: "1000000",
            expense: "200000",
            ...zero,
          },
          {
            ...february,
            openingBalance: "850000",
            closingBalance: "1182528",
            inflows: "632528",
            outflows: "300000",
            income: "0",
            expense: "0",
            ...zero,
            transfersOut: "300000",
            exchangesIn: "632528",
          },
        ],
      },
      {
        accountId: ids.usd,
        compared: [],
        name: "Dollars",
        currency: "USD",
        openingBalance: "0",
        closingBalance: "5000",
        inflows: "10000",
        outflows: "5000",
        income: "10000",
        expense: "0",
        ...zero,
        exchangesOut: "5000",
        periods: [
          // A month with no movement is still a month.
          { ...january, openingBalance: "0", closingBalance: "0", ...noFlows },
          {
            ...february,
            openingBalance: "0",
            closingBalance: "5000",
            inflows: "10000",
            outflows: "5000",
            income: "10000",
            expense: "0",
            ...zero,
            exchangesOut: "5000",
          },
        ],
      },
    ]);
    expect(report.totals).toEqual([
      expect.objectContaining({
        currency: "USD",
        openingBalance: "0",
        closingBalance: "5000",
        inflows: "10000",
      }),
      expect.objectContaining({
        currency: "UZS",
        openingBalance: "50000",
        closingBalance: "1882528",
        inflows: "2432528",
        outflows: "600000",
      }),
    ]);
    expect(report.movements).toEqual([
      {
        type: "transfer",
        fromAccountId: ids.cash,
        toAccountId: ids.bank,
        count: 1,
        amount: "300000",
        destinationAmount: "300000",
      },
      {
        type: "exchange",
        fromAccountId: ids.usd,
        toAccountId: ids.cash,
        count: 1,
        amount: "5000",
        destinationAmount: "632528",
      },
    ]);
  });

  it("buckets by ISO week and by day: every period of the range, labelled alike, balances chained", async () => {
    type Period = {
      period: string;
      startDate: string;
      endDate: string;
      openingBalance: string;
      closingBalance: string;
      inflows: string;
      outflows: string;
    };
    const weekly = (
      await get(admin, `/finance/reports/cashflow?${PERIOD}&granularity=week&accountId=${ids.cash}`)
    ).json();
    const weeks = weekly.accounts[0].periods as Period[];
    // 2026-01-01 is the Thursday of 2026-W01; 2026-02-28 the Saturday of 2026-W09.
    expect(weeks.map((p) => p.period)).toEqual([
      "2026-W01",
      "2026-W02",
      "2026-W03",
      "2026-W04",
      "2026-W05",
      "2026-W06",
      "2026-W07",
      "2026-W08",
      "2026-W09",
    ]);
    // Clipped to the report's range at both ends.
    expect(weeks[0]).toMatchObject({
      startDate: "2026-01-01",
      endDate: "2026-01-04",
      openingBalance: "50000",
    });
    expect(weeks[8]).toMatchObject({
      startDate: "2026-02-23",
      endDate: "2026-02-28",
      closingBalance: "1182528",
    });
    // 2026-01-05 (W02), 2026-01-25 (a Sunday, W04), 2026-02-03 (W06), 2026-02-15 (a Sunday, W07).
    expect(weeks.filter((p) => p.inflows !== "0" || p.outflows !== "0").map((p) => p.period)).toEqual([
      "2026-W02",
      "2026-W04",
      "2026-W06",
      "2026-W07",
    ]);
    const chained = (periods: Period[], opening: string, closing: string) => {
      let balance = BigInt(opening);
      for (const p of periods) {
        expect(p.openingBalance, p.period).toBe(String(balance));
        balance += BigInt(p.inflows) - BigInt(p.outflows);
        expect(p.closingBalance, p.period).toBe(String(balance));
      }
      expect(String(balance)).toBe(closing);
    };
    chained(weeks, weekly.accounts[0].openingBalance, weekly.accounts[0].closingBalance);

    const daily = (
      await get(admin, `/finance/reports/cashflow?${PERIOD}&granularity=day&accountId=${ids.bank}`)
    ).json();
    const days = daily.accounts[0].periods as Period[];
    expect(days).toHaveLength(31 + 28);
    expect(days[0]).toMatchObject({ period: "2026-01-01", startDate: "2026-01-01", endDate: "2026-01-01" });
    expect(days.filter((p) => p.inflows !== "0" || p.outflows !== "0").map((p) => p.period)).toEqual([
      "2026-01-20",
      "2026-02-03",
      "2026-02-28",
    ]);
    chained(days, daily.accounts[0].openingBalance, daily.accounts[0].closingBalance);

    // Across a year's end the statement's labels are ISO weeks (2026 has 53; 2027-01-01 to 01-03
    // belong to 2026-W53), each period clipped to the range; months end on their last day.
    const turn = "startDate=2026-12-25&endDate=2027-01-12";
    const turnWeeks = (
      await get(admin, `/finance/reports/cashflow?${turn}&granularity=week&accountId=${ids.cash}`)
    ).json().accounts[0].periods as Period[];
    expect(turnWeeks.map(({ period, startDate, endDate }) => [period, startDate, endDate])).toEqual([
      ["2026-W52", "2026-12-25", "2026-12-27"],
      ["2026-W53", "2026-12-28", "2027-01-03"],
      ["2027-W01", "2027-01-04", "2027-01-10"],
      ["2027-W02", "2027-01-11", "2027-01-12"],
    ]);
    const turnMonths = (
      await get(
        admin,
        `/finance/reports/cashflow?startDate=2026-02-10&endDate=2027-01-12&granularity=month&accountId=${ids.cash}`,
      )
    ).json().accounts[0].periods as Period[];
    expect(turnMonths.map(({ period, startDate, endDate }) => [period, startDate, endDate])).toEqual([
      ["2026-02", "2026-02-10", "2026-02-28"],
      ["2026-03", "2026-03-01", "2026-03-31"],
      ["2026-04", "2026-04-01", "2026-04-30"],
      ["2026-05", "2026-05-01", "2026-05-31"],
      ["2026-06", "2026-06-01", "2026-06-30"],
      ["2026-07", "2026-07-01", "2026-07-31"],
      ["2026-08", "2026-08-01", "2026-08-31"],
      ["2026-09", "2026-09-01", "2026-09-30"],
      ["2026-10", "2026-10-01", "2026-10-31"],
      ["2026-11", "2026-11-01", "2026-11-30"],
      ["2026-12", "2026-12-01", "2026-12-31"],
      ["2027-01", "2027-01-01", "2027-01-12"],
    ]);
  });

  it("refuses more periods than a report can hold, naming the granularity", async () => {
    const res = await get(
      admin,
      "/finance/reports/cashflow?startDate=2020-01-01&endDate=2026-01-01&granularity=day",
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues).toEqual([
      { path: "granularity", message: "must be longer for this range (at most 1000 periods)" },
    ]);
    const weekly = await get(
      admin,
      "/finance/reports/cashflow?startDate=2020-01-01&endDate=2026-01-01&granularity=week",
    );
    expect(weekly.statusCode).toBe(200);
  });
});

describe("account statement", () => {
  it("lists every transaction with its running balance between the opening and closing balances", async () => {
    const res = await get(admin, `/finance/reports/account-statement/${ids.cash}?${PERIOD}`);
    expect(res.statusCode, res.body).toBe(200);
    const statement = res.json();
    expect(statement).toMatchObject({
      account: { id: ids.cash, name: "Cash", currency: "UZS" },
      openingBalance: "50000",
      closingBalance: "1182528",
      total: 4,
    });
    expect(
      statement.entries.map((e: { date: string; type: string; change: string; runningBalance: string }) => [
        e.date,
        e.type,
        e.change,
        e.runningBalance,
      ]),
    ).toEqual([
      ["2026-01-05", "income", "1000000", "1050000"],
      ["2026-01-25", "expense", "-200000", "850000"],
      ["2026-02-03", "transfer", "-300000", "550000"],
      ["2026-02-15", "exchange", "632528", "1182528"],
    ]);
    expect(statement.entries[2].counterAccountId).toBe(ids.bank);
    expect(statement.entries[0].paymentId).toEqual(expect.any(String));
    const page = (
      await get(admin, `/finance/reports/account-statement/${ids.cash}?${PERIOD}&limit=2&offset=2`)
    ).json();
    expect(page.entries.map((e: { runningBalance: string }) => e.runningBalance)).toEqual([
      "550000",
      "1182528",
    ]);
    expect(page).toMatchObject({ total: 4, limit: 2, offset: 2, openingBalance: "50000" });
  });

  it("newest first (order=desc): the same entries and balances in reverse, paged from the newest", async () => {
    const asc = (await get(admin, `/finance/reports/account-statement/${ids.cash}?${PERIOD}`)).json();
    const res = await get(admin, `/finance/reports/account-statement/${ids.cash}?${PERIOD}&order=desc`);
    expect(res.statusCode, res.body).toBe(200);
    const desc = res.json();
    expect(desc.entries).toEqual([...asc.entries].reverse());
    expect(desc).toMatchObject({ openingBalance: "50000", closingBalance: "1182528", total: 4 });
    const second = (
      await get(admin, `/finance/reports/account-statement/${ids.cash}?${PERIOD}&order=desc&limit=2&offset=2`)
    ).json();
    expect(second.entries.map((e: { runningBalance: string }) => e.runningBalance)).toEqual([
      "850000",
      "1050000",
    ]);
    // Entries after the period's end do not count in its running balances.
    const january = (
      await get(
        admin,
        `/finance/reports/account-statement/${ids.cash}?startDate=2026-01-01&endDate=2026-01-31&order=desc&limit=1`,
      )
    ).json();
    expect(january.entries.map((e: { runningBalance: string }) => e.runningBalance)).toEqual(["850000"]);
    expect(
      (await get(admin, `/finance/reports/account-statement/${ids.cash}?${PERIOD}&order=sideways`))
        .statusCode,
    ).toBe(400);
  });

  it("a later period opens where the earlier one closed; the whole history closes at the stored balance", async () => {
    const march = (
      await get(
        admin,
        `/finance/reports/account-statement/${ids.usd}?startDate=2026-03-01&endDate=2026-03-31`,
      )
    ).json();
    expect(march).toMatchObject({ openingBalance: "5000", closingBalance: "4000", total: 1 });
    const stored = (await get(admin, `/finance/accounts/${ids.usd}`)).json().balance;
    expect(stored).toBe("4000");
  });
});

describe("bad input, permissions and tenancy", () => {
  it("refuses an end before the start, missing or malformed dates and options", async () => {
    const cases: Array<[string, string]> = [
      ["/finance/reports/income-statement?startDate=2026-02-01&endDate=2026-01-31", "endDate"],
      ["/finance/reports/income-statement?endDate=2026-01-31", "startDate"],
      ["/finance/reports/income-statement?startDate=2026-02-30&endDate=2026-03-01", "startDate"],
      ["/finance/reports/income-statement?startDate=yesterday&endDate=2026-03-01", "startDate"],
      [`/finance/reports/income-statement?${PERIOD}&accountId=not-a-uuid`, "accountId"],
      [`/finance/reports/cashflow?${PERIOD}&granularity=year`, "granularity"],
      ["/finance/reports/cashflow?startDate=2026-03-01&endDate=2026-01-01", "endDate"],
      [`/finance/reports/account-statement/${ids.cash}?startDate=2026-03-01&endDate=2026-01-01`, "endDate"],
      [`/finance/reports/account-statement/${ids.cash}?${PERIOD}&limit=5000`, "limit"],
      [`/finance/reports/account-statement/${ids.cash}?${PERIOD}&offset=-1`, "offset"],
      [`/finance/reports/account-statement/${ids.cash}`, "startDate"],
      [`/finance/reports/account-statement/not-an-id?${PERIOD}`, "id"],
    ];
    for (const [url, field] of cases) {
      const res = await get(admin, url);
      expect(res.statusCode, url).toBe(400);
      expect(
        res.json().error.issues.map((i: { path: string }) => i.path),
        url,
      ).toContain(field);
    }
  });

  it("needs reports:read:all, a session, and never shows another tenant's accounts", async () => {
    const clerk = await t.createUser(tenantId, ["payments:create:all", "accounts:read:all"]);
    for (const url of [
      `/finance/reports/income-statement?${PERIOD}`,
      `/finance/reports/cashflow?${PERIOD}`,
      `/finance/reports/account-statement/${ids.cash}?${PERIOD}`,
    ]) {
      expect((await get(clerk, url)).statusCode, url).toBe(403);
      expect((await get(null, url)).statusCode, url).toBe(401);
    }
    expect((await get(other, `/finance/reports/account-statement/${ids.cash}?${PERIOD}`)).statusCode).toBe(
      404,
    );
    // Naming another tenant's account is NOT_FOUND, as in the account statement.
    for (const report of ["income-statement", "cashflow"]) {
      const foreign = await get(other, `/finance/reports/${report}?${PERIOD}&accountId=${ids.cash}`);
      expect(foreign.statusCode, report).toBe(404);
    }
    const foreignFlow = (await get(other, `/finance/reports/cashflow?${PERIOD}`)).json();
    expect(foreignFlow).toMatchObject({ accounts: [], totals: [], movements: [] });
  });
});

describe("reports agree with the stored balances after random postings", () => {
  it("closing balances equal stored balances; period splits chain; the income statement matches the ledger", async () => {
    const tenant = await t.createTenant();
    const user = await t.createUser(tenant.id, "admin");
    await t.app.inject({
      method: "PUT",
      url: "/tenant/currencies",
      headers: user.headers,
      payload: { codes: ["UZS", "EUR"] },
    });
    const accounts = [
      (await post("/finance/accounts", { name: "A", currency: "UZS", allowOverdraft: true }, user)).id,
      (await post("/finance/accounts", { name: "B", currency: "UZS", allowOverdraft: true }, user)).id,
      (await post("/finance/accounts", { name: "E", currency: "EUR", allowOverdraft: true }, user)).id,
    ] as [string, string, string];
    let seed = 11;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const day = () =>
      `2026-0${1 + Math.floor(next() * 6)}-${String(1 + Math.floor(next() * 28)).padStart(2, "0")}`;
    const amount = () => String(1 + Math.floor(next() * 100_000));
    let income = 0n;
    let expense = 0n;
    const payments: string[] = [];
    for (let i = 0; i < 60; i++) {
      const kind = Math.floor(next() * 5);
      const account = accounts[Math.floor(next() * 2)] as string;
      const value = amount();
      if (kind === 0) {
        payments.push(
          (await post("/finance/payments", { accountId: account, amount: value, date: day() }, user)).id,
        );
      } else if (kind === 1) {
        await post("/finance/expenses", { accountId: account, amount: value, date: day() }, user);
      } else if (kind === 2) {
        await post(
          "/finance/transfers",
          { fromAccountId: accounts[0], toAccountId: accounts[1], amount: value, date: day() },
          user,
        );
      } else if (kind === 3) {
        await post(
          "/finance/exchanges",
          {
            fromAccountId: accounts[2],
            toAccountId: account,
            amount: value,
            rate: "13987.123456",
            confirmRate: true,
            date: day(),
          },
          user,
        );
      } else if (payments.length > 0) {
        const id = payments.pop() as string;
        const res = await t.app.inject({
          method: "PUT",
          url: `/finance/payments/${id}`,
          headers: user.headers,
          payload: { amount: value, date: day() },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    // The ledger's own sums, to compare the income statement with.
    const sums = await t.db.withTenant(tenant.id, (tx) =>
      tx.financeTransaction.groupBy({ by: ["type"], _sum: { amount: true } }),
    );
    income = sums.find((row) => row.type === "income")?._sum.amount ?? 0n;
    expense = sums.find((row) => row.type === "expense")?._sum.amount ?? 0n;

    const whole = "startDate=2020-01-01&endDate=2030-12-31";
    const flow = (await get(user, `/finance/reports/cashflow?${whole}`)).json();
    for (const row of flow.accounts) {
      const stored = (await get(user, `/finance/accounts/${row.accountId}`)).json().balance;
      expect(row.openingBalance).toBe("0");
      expect(row.closingBalance, row.name).toBe(stored);
      expect(BigInt(row.inflows) - BigInt(row.outflows)).toBe(BigInt(stored));
      const statement = (
        await get(user, `/finance/reports/account-statement/${row.accountId}?${whole}&limit=1000`)
      ).json();
      expect(statement.closingBalance).toBe(stored);
      expect(statement.entries.at(-1)?.runningBalance ?? "0").toBe(stored);
    }
    // Split at the end of March: the first part's closing is the second part's opening.
    const first = (
      await get(user, "/finance/reports/cashflow?startDate=2020-01-01&endDate=2026-03-31")
    ).json();
    const second = (
      await get(user, "/finance/reports/cashflow?startDate=2026-04-01&endDate=2030-12-31")
    ).json();
    for (const row of first.accounts) {
      const later = second.accounts.find((a: { accountId: string }) => a.accountId === row.accountId);
      expect(later.openingBalance).toBe(row.closingBalance);
    }
    const statement = (await get(user, `/finance/reports/income-statement?${whole}`)).json();
    const uzs = statement.currencies.find((c: { currency: string }) => c.currency === "UZS");
    expect(BigInt(uzs?.revenue ?? "0")).toBe(income);
    expect(BigInt(uzs?.expenses ?? "0")).toBe(expense);
    // The category split (from the documents) adds up to the totals (from the ledger).
    const total = (rows: Array<{ amount: string }>) =>
      rows.reduce((sum, row) => sum + BigInt(row.amount), 0n);
    expect(total(uzs.revenueByCategory)).toBe(income);
    expect(total(uzs.expensesByCategory)).toBe(expense);
    expect((await get(user, "/finance/reconcile")).json().ok).toBe(true);
  });
});

describe("aging, balances on a date, counterparty statement and comparisons over HTTP", () => {
  const graphql = async (caller: SeededUser, query: string, variables: Record<string, unknown> = {}) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/graphql",
      headers: { ...caller.headers, "content-type": "application/json" },
      payload: { query, variables },
    });
    return res.json() as { data?: Record<string, never>; errors?: Array<{ extensions: { code: string } }> };
  };

  it("REST and GraphQL answer the same reports", async () => {
    const customer = await post("/finance/counterparties", { name: "Customer" });
    await post("/finance/debts", {
      kind: "receivable",
      counterpartyId: customer.id,
      amount: "120000",
      currency: "UZS",
      dueDate: "2026-01-15",
    });
    const aging = await get(admin, "/finance/reports/aging?asOf=2099-01-01");
    expect(aging.statusCode, aging.body).toBe(200);
    expect(aging.json().totals).toEqual([
      expect.objectContaining({ kind: "receivable", currency: "UZS", over90: "120000", total: "120000" }),
    ]);
    // The figure's debts (decision 0106): the one debt, what was left of it the figure.
    const behind = await get(
      admin,
      `/finance/reports/aging/debts?asOf=2099-01-01&kind=receivable&currency=UZS&bucket=over90&counterpartyId=${customer.id}`,
    );
    expect(behind.statusCode, behind.body).toBe(200);
    expect(behind.json()).toMatchObject({
      total: 1,
      left: "120000",
      items: [{ counterpartyId: customer.id, dueDate: "2026-01-15", amount: "120000", left: "120000" }],
    });
    const balances = await get(admin, "/finance/reports/balances?date=2026-01-31");
    // 31 January: cash 50 000 + 1 000 000 − 200 000, bank 500 000.
    expect(balances.json().totals).toEqual([{ currency: "UZS", balance: "1350000", accounts: 2 }]);
    const statement = await get(
      admin,
      `/finance/reports/counterparty-statement/${customer.id}?startDate=2026-01-01&endDate=2035-12-31`,
    );
    expect(statement.json().currencies).toEqual([
      expect.objectContaining({ currency: "UZS", openingReceivable: "0", closingReceivable: "120000" }),
    ]);
    const compared = await get(
      admin,
      "/finance/reports/income-statement?startDate=2026-02-01&endDate=2026-02-28&compare=previousPeriod&compare=previousYear",
    );
    // February 2026 UZS: 0 in, 100 000 out; January: 1 500 000 in, 200 000 out.
    expect(
      compared.json().currencies.find((c: { currency: string }) => c.currency === "UZS").compared,
    ).toEqual([
      {
        compare: "previousPeriod",
        revenue: { value: "1500000", change: "-1500000", changePercent: "-100.00" },
        expenses: { value: "200000", change: "-100000", changePercent: "-50.00" },
        netIncome: { value: "1300000", change: "-1400000", changePercent: "-107.69" },
      },
      {
        compare: "previousYear",
        revenue: { value: "0", change: "0", changePercent: null },
        expenses: { value: "0", change: "100000", changePercent: null },
        netIncome: { value: "0", change: "-100000", changePercent: null },
      },
    ]);

    const { data, errors } = await graphql(
      admin,
      `query($id: ID!) {
        agingReport(asOf: "2099-01-01") { totals { kind currency over90 total } }
        agingDebts(asOf: "2099-01-01", kind: receivable, currency: "UZS", bucket: total) { total left }
        balancesOnDate(date: "2026-01-31") { totals { currency balance accounts } }
        counterpartyStatement(counterpartyId: $id, startDate: "2026-01-01", endDate: "2035-12-31") {
          currencies { currency closingReceivable }
        }
        incomeStatement(startDate: "2026-02-01", endDate: "2026-02-28", compare: [previousPeriod]) {
          comparedPeriods { compare startDate endDate }
          currencies { currency compared { compare netIncome { value change changePercent } } }
        }
        cashflow(startDate: "2026-02-01", endDate: "2026-02-28", compare: [previousPeriod]) {
          totals { currency closingBalance compared { closingBalance { value change changePercent } } }
        }
      }`,
      { id: customer.id },
    );
    expect(errors).toBeUndefined();
    expect(data).toMatchObject({
      agingReport: { totals: [{ kind: "receivable", currency: "UZS", over90: "120000", total: "120000" }] },
      agingDebts: { total: 1, left: "120000" },
      balancesOnDate: { totals: [{ currency: "UZS", balance: "1350000", accounts: 2 }] },
      counterpartyStatement: { currencies: [{ currency: "UZS", closingReceivable: "120000" }] },
      incomeStatement: {
        comparedPeriods: [{ compare: "previousPeriod", startDate: "2026-01-01", endDate: "2026-01-31" }],
      },
      // UZS closed January at 1 350 000 and February at 1 882 528.
      cashflow: {
        totals: expect.arrayContaining([
          {
            currency: "UZS",
            closingBalance: "1882528",
            compared: [{ closingBalance: { value: "1350000", change: "532528", changePercent: "39.45" } }],
          },
        ]),
      },
    });
  });

  it("refuses bad, missing, oversized and hostile input with 400 naming the field, translated", async () => {
    const cases: Array<[string, string]> = [
      ["/finance/reports/aging", "asOf"],
      ["/finance/reports/aging?asOf=2026-02-30", "asOf"],
      ["/finance/reports/aging?asOf=2026-01-01&counterpartyId=1%27%20OR%201%3D1", "counterpartyId"],
      [`/finance/reports/aging?asOf=${"9".repeat(5000)}`, "asOf"],
      [
        "/finance/reports/aging/debts?asOf=2026-01-01&kind=receivable&currency=UZS&bucket=days0To30",
        "bucket",
      ],
      ["/finance/reports/aging/debts?asOf=2026-01-01&kind=receivable&bucket=total", "currency"],
      [
        "/finance/reports/aging/debts?asOf=2026-01-01&kind=receivable&currency=UZS&bucket=total&limit=101",
        "limit",
      ],
      ["/finance/reports/balances?date=tomorrow", "date"],
      ["/finance/reports/balances", "date"],
      ["/finance/reports/balances?date=2026-01-01&accountId=x", "accountId"],
      [
        `/finance/reports/counterparty-statement/${ids.cash}?startDate=2000-01-01&endDate=2026-01-01`,
        "endDate",
      ],
      [
        `/finance/reports/counterparty-statement/${ids.cash}?startDate=2026-02-01&endDate=2026-01-01`,
        "endDate",
      ],
      ["/finance/reports/counterparty-statement/%3Cscript%3E?startDate=2026-01-01&endDate=2026-01-31", "id"],
      [`/finance/reports/income-statement?${PERIOD}&compare=lastWeek`, "compare"],
      [`/finance/reports/cashflow?${PERIOD}&compare=previousYear&compare=DROP`, "compare"],
    ];
    for (const [url, field] of cases) {
      const res = await get(admin, url);
      expect(res.statusCode, url).toBe(400);
      expect(
        res.json().error.issues.map((i: { path: string }) => i.path),
        url,
      ).toContain(field);
    }
    // A Russian-speaking user reads the issue in Russian (the catalogue matches the English text).
    const reader = await t.createUser(tenantId, "admin");
    await t.db.withTenant(tenantId, (tx) =>
      tx.user.update({ where: { id: reader.id }, data: { uiLanguage: "ru" } }),
    );
    const russian = await get(
      reader,
      `/finance/reports/counterparty-statement/${ids.cash}?startDate=2000-01-01&endDate=2026-01-01`,
    );
    expect(russian.json().error.issues).toEqual([
      { path: "endDate", message: "должна быть не позже чем через 3660 дней после startDate" },
    ]);
  });

  it("needs reports:read:all; another tenant's counterparty or account is 404", async () => {
    const clerk = await t.createUser(tenantId, ["payments:create:all", "accounts:read:all"]);
    const customer = await post("/finance/counterparties", { name: "Private" });
    for (const url of [
      "/finance/reports/aging?asOf=2026-01-01",
      "/finance/reports/balances?date=2026-01-01",
      `/finance/reports/counterparty-statement/${customer.id}?startDate=2026-01-01&endDate=2026-01-31`,
      "/finance/reports/aging/export?asOf=2026-01-01",
    ]) {
      expect((await get(clerk, url)).statusCode, url).toBe(403);
      expect((await get(null, url)).statusCode, url).toBe(401);
    }
    for (const url of [
      `/finance/reports/aging?asOf=2026-01-01&counterpartyId=${customer.id}`,
      `/finance/reports/balances?date=2026-01-01&accountId=${ids.cash}`,
      `/finance/reports/counterparty-statement/${customer.id}?startDate=2026-01-01&endDate=2026-01-31`,
      `/finance/reports/counterparty-statement/${customer.id}/export?startDate=2026-01-01&endDate=2026-01-31`,
    ]) {
      expect((await get(other, url)).statusCode, url).toBe(404);
    }
    const download = await get(
      admin,
      `/finance/reports/counterparty-statement/${customer.id}/export?startDate=2026-01-01&endDate=2026-01-31`,
    );
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-disposition"]).toMatch(/counterparty-statement-2026-01-01-2026-01-31/);
  });
});
