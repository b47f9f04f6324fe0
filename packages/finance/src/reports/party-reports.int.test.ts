import { createOutbox, type Db } from "@hisob/db";
import { createTestDb, insertTenant } from "@hisob/db/testing";
import { type AppError, newId, type TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyRows, minorOf, workbookOf } from "../exports/xlsx-test-reading";
import { FINANCE_PERMISSIONS } from "../finance.permissions";
import { createFinanceServices, type FinanceServices } from "../finance-services";
import { AGING_BUCKETS, type TAgingDebts, type TAgingDebtsQuery } from "./reports.schema";

/*
 * Aging, balances on a date and the counterparty statement against a hand-computed fixture, on
 * PGlite by default and on PostgreSQL with DATABASE_URL. The debts are recorded today (the clock is
 * real) and aged as of 2030-06-30, so every debt exists on the days asked about; dues, settlements
 * and postings are dated around that day.
 */

let db: Db;
let finance: FinanceServices;
let ctx: TenantContext;
let otherCtx: TenantContext;
const ids = { uzs: "", usd: "", acme: "", bolt: "", quiet: "" };
const debts: Record<string, string> = {};

/** A user of the tenant (audit entries name their author) with every finance permission. */
const contextOf = async (tenantId: string): Promise<TenantContext> => {
  const userId = newId();
  await db.withTenant(tenantId, (tx) =>
    tx.user.create({
      data: {
        id: userId,
        tenantId,
        email: `${userId}@reports.test`,
        firstName: "Report",
        lastName: "Tester",
      },
    }),
  );
  return {
    tenantId,
    actor: { userId, permissions: new Set(FINANCE_PERMISSIONS) },
    locale: "en",
    requestId: "party-reports",
  };
};

/** The error a call fails with (its status and reason), or null when it succeeds. */
const failure = async (call: () => Promise<unknown>) => {
  try {
    await call();
    return null;
  } catch (error) {
    const appError = error as AppError & { reason?: string };
    return { code: appError.code, reason: appError.reason, message: appError.message };
  }
};

beforeAll(async () => {
  db = await createTestDb();
  const tenantId = (await insertTenant(db, "Party reports")).id;
  const otherTenantId = (await insertTenant(db, "Someone else")).id;
  for (const id of [tenantId, otherTenantId]) {
    await db.withTenant(id, (tx) =>
      tx.tenantCurrency.createMany({
        data: ["UZS", "USD"].map((currencyCode) => ({ tenantId: id, currencyCode })),
      }),
    );
  }
  finance = createFinanceServices({ db, outbox: createOutbox(db) });
  ctx = await contextOf(tenantId);
  otherCtx = await contextOf(otherTenantId);

  ids.uzs = (await finance.accounts.create(ctx, { name: "Cash", currency: "UZS" })).id;
  ids.usd = (await finance.accounts.create(ctx, { name: "Dollars", currency: "USD" })).id;
  ids.acme = (await finance.counterparties.create(ctx, { name: "Acme" })).id;
  ids.bolt = (await finance.counterparties.create(ctx, { name: "Bolt", type: "supplier" })).id;
  ids.quiet = (await finance.counterparties.create(ctx, { name: "Quiet" })).id;

  // Balances: dollars received on 2029-06-20 (the first entry), an opening balance of the UZS account
  // on 2030-01-10, then payments.
  await finance.payments.create(ctx, { accountId: ids.usd, amount: "4000", date: "2029-06-20" });
  await finance.openingBalances.set(ctx, ids.uzs, { amount: "5000000", date: "2030-01-10" });
  await finance.payments.create(ctx, { accountId: ids.uzs, amount: "250000", date: "2030-02-15" });
  await finance.payments.create(ctx, { accountId: ids.usd, amount: "9000", date: "2030-03-01" });

  const debt = async (
    name: string,
    kind: "receivable" | "payable",
    counterpartyId: string,
    amount: string,
    currency: string,
    dueDate: string | null,
  ) => {
    debts[name] = (
      await finance.debts.create(ctx, { kind, counterpartyId, amount, currency, dueDate, description: name })
    ).id;
  };
  await debt("R1 due today", "receivable", ids.acme, "1000000", "UZS", "2030-06-30");
  await debt("R2 due in 31 days", "receivable", ids.acme, "500000", "UZS", "2030-07-31");
  await debt("R3 partly settled", "receivable", ids.acme, "800000", "UZS", "2030-05-01");
  await debt("R4 written off", "receivable", ids.acme, "200000", "UZS", "2030-03-01");
  await debt("R5 one day late", "receivable", ids.acme, "100000", "UZS", "2030-06-29");
  await debt("R6 dollars", "receivable", ids.acme, "5000", "USD", "2030-03-31");
  await debt("P1 ninety days late", "payable", ids.bolt, "700000", "UZS", "2030-04-01");
  await debt("P2 no due date", "payable", ids.bolt, "300000", "UZS", null);

  const settle = (name: string, amount: string, date: string, accountId = ids.uzs) =>
    finance.debts.settle(ctx, debts[name] ?? "", { amount, accountId, date });
  await settle("R3 partly settled", "300000", "2030-06-10");
  await settle("R5 one day late", "40000", "2030-06-15");
  await settle("R5 one day late", "60000", "2030-07-05"); // after the as-of day
  const undone = await settle("R1 due today", "10000", "2030-06-20");
  await finance.debts.reverseSettlement(ctx, debts["R1 due today"] ?? "", undone.settlement.id);
  await settle("P1 ninety days late", "100000", "2030-06-05");
  await finance.debts.writeOff(ctx, debts["R4 written off"] ?? "", { reason: "Gone bankrupt" });
  // Money through Bolt that moves no debt, and a plain payment from Acme.
  await finance.payments.create(ctx, {
    accountId: ids.uzs,
    amount: "70000",
    date: "2030-06-12",
    counterpartyId: ids.acme,
  });
});

afterAll(async () => {
  await db?.close();
});

describe("receivables and payables aging", () => {
  it("buckets what is left due at the end of the day by days past due, per counterparty and currency", async () => {
    // R1 due on the day itself: not yet due. R2 due in 31 days: not yet due. R3 60 days late, 300 000
    // of 800 000 settled: 500 000 in 31–60. R4 written off: nothing. R5 1 day late, 40 000 settled
    // by then (60 000 later): 60 000 in 1–30. R1's 10 000 settlement was reversed: it counts in full.
    // R6 91 days late: over 90. P1 90 days late with 100 000 paid: 600 000 in 61–90. P2 no due date.
    const report = await finance.reports.aging(ctx, { asOf: "2030-06-30" });
    const zero = { days1To30: "0", days31To60: "0", days61To90: "0", over90: "0" };
    expect(report).toEqual({
      asOf: "2030-06-30",
      rows: [
        {
          kind: "receivable",
          counterpartyId: ids.acme,
          counterpartyName: "Acme",
          currency: "USD",
          debts: 1,
          ...zero,
          notDue: "0",
          over90: "5000",
          total: "5000",
        },
        {
          kind: "receivable",
          counterpartyId: ids.acme,
          counterpartyName: "Acme",
          currency: "UZS",
          debts: 4,
          ...zero,
          notDue: "1500000",
          days1To30: "60000",
          days31To60: "500000",
          total: "2060000",
        },
        {
          kind: "payable",
          counterpartyId: ids.bolt,
          counterpartyName: "Bolt",
          currency: "UZS",
          debts: 2,
          ...zero,
          notDue: "300000",
          days61To90: "600000",
          total: "900000",
        },
      ],
      totals: [
        {
          kind: "receivable",
          currency: "USD",
          debts: 1,
          ...zero,
          notDue: "0",
          over90: "5000",
          total: "5000",
        },
        {
          kind: "receivable",
          currency: "UZS",
          debts: 4,
          ...zero,
          notDue: "1500000",
          days1To30: "60000",
          days31To60: "500000",
          total: "2060000",
        },
        {
          kind: "payable",
          currency: "UZS",
          debts: 2,
          ...zero,
          notDue: "300000",
          days61To90: "600000",
          total: "900000",
        },
      ],
    });
  });

  it("counts only the settlements dated by the as-of day", async () => {
    // 2030-06-09: R3 unsettled (39 days late), R5 not yet due, R6 70 days late.
    const report = await finance.reports.aging(ctx, { asOf: "2030-06-09", counterpartyId: ids.acme });
    expect(
      report.rows.map((row) => [row.currency, row.notDue, row.days31To60, row.over90, row.total]),
    ).toEqual([
      ["USD", "0", "0", "0", "5000"],
      ["UZS", "1600000", "800000", "0", "2400000"],
    ]);
  });

  it("answers 404 for another tenant's counterparty and 400 for bad input", async () => {
    expect(
      await failure(() => finance.reports.aging(otherCtx, { asOf: "2030-06-30", counterpartyId: ids.acme })),
    ).toMatchObject({ code: "NOT_FOUND", reason: "finance.counterparty_not_found" });
    for (const bad of [
      {},
      { asOf: "2030-02-30" },
      { asOf: "30.06.2030" },
      { asOf: "2030-06-30", counterpartyId: "'; DROP TABLE debts; --" },
      { asOf: "2030-06-30", extra: "x" },
      { asOf: "x".repeat(10_000) },
    ]) {
      expect(await failure(() => finance.reports.aging(ctx, bad as never))).toMatchObject({
        code: "VALIDATION_ERROR",
      });
    }
  });
});

describe("the debts behind an aging figure (decision 0106)", () => {
  const drill = (query: Partial<TAgingDebtsQuery>) =>
    finance.reports.agingDebts(ctx, {
      asOf: "2030-06-30",
      kind: "receivable",
      currency: "UZS",
      bucket: "total",
      ...query,
    });
  const listed = (report: TAgingDebts) =>
    report.items.map((item) => [item.description, item.dueDate, item.daysPastDue, item.amount, item.left]);

  it("lists a past day's debts with what was left of each then, though they are settled since", async () => {
    // R5: 100 000, 40 000 settled on 2030-06-15 and the rest on 2030-07-05 — settled today, so the
    // debts list of open debts no longer has it; at the end of 2030-06-30 it was 1 day late with 60 000 left.
    const late = await drill({ bucket: "days1To30" });
    expect(late).toMatchObject({ asOf: "2030-06-30", total: 1, left: "60000", limit: 20, offset: 0 });
    expect(listed(late)).toEqual([["R5 one day late", "2030-06-29", 1, "100000", "60000"]]);
    expect(late.items[0]).toMatchObject({
      id: debts["R5 one day late"],
      counterpartyId: ids.acme,
      counterpartyName: "Acme",
    });
    // The total column: R3 (500 000 of 800 000 left), R5, R1 (its reversed settlement does not count)
    // and R2, by due date; not R4 (written off) nor R6 (dollars).
    const total = await drill({});
    expect(total).toMatchObject({ total: 4, left: "2060000" });
    expect(listed(total)).toEqual([
      ["R3 partly settled", "2030-05-01", 60, "800000", "500000"],
      ["R5 one day late", "2030-06-29", 1, "100000", "60000"],
      ["R1 due today", "2030-06-30", null, "1000000", "1000000"],
      ["R2 due in 31 days", "2030-07-31", null, "500000", "500000"],
    ]);
    // A debt without a due date is not yet due; what we owe is the payable side.
    const payable = await drill({ kind: "payable", bucket: "notDue", counterpartyId: ids.bolt });
    expect(listed(payable)).toEqual([["P2 no due date", null, null, "300000", "300000"]]);
    // Earlier, R3 was unsettled and 39 days late: its whole amount.
    const earlier = await drill({ asOf: "2030-06-09", bucket: "days31To60", counterpartyId: ids.acme });
    expect(listed(earlier)).toEqual([["R3 partly settled", "2030-05-01", 39, "800000", "800000"]]);
  });

  it("adds up to every figure of the aging, on three days", async () => {
    for (const asOf of ["2030-06-09", "2030-06-30", "2030-07-10"]) {
      const report = await finance.reports.aging(ctx, { asOf });
      const lines = [
        ...report.rows.map((row) => ({ ...row, counterpartyId: row.counterpartyId as string | undefined })),
        ...report.totals.map((line) => ({ ...line, counterpartyId: undefined })),
      ];
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines)
        for (const bucket of [...AGING_BUCKETS, "total"] as const) {
          const debtsOf = await drill({
            asOf,
            kind: line.kind,
            currency: line.currency,
            bucket,
            counterpartyId: line.counterpartyId,
            limit: 100,
          });
          expect([asOf, line.counterpartyId, bucket, debtsOf.left]).toEqual([
            asOf,
            line.counterpartyId,
            bucket,
            line[bucket],
          ]);
          const summed = debtsOf.items.reduce((sum, item) => sum + BigInt(item.left), 0n);
          expect(summed.toString()).toBe(line[bucket]);
          if (bucket === "total") expect(debtsOf.total).toBe(line.debts);
        }
    }
  });

  it("pages through the debts with their count and sum on every page", async () => {
    const second = await drill({ limit: 2, offset: 2 });
    expect(second).toMatchObject({ total: 4, left: "2060000", limit: 2, offset: 2 });
    expect(second.items.map((item) => item.description)).toEqual(["R1 due today", "R2 due in 31 days"]);
    const past = await drill({ offset: 10 });
    expect(past).toMatchObject({ total: 4, left: "2060000", items: [] });
  });

  it("answers 404 for another tenant's counterparty and 400 for bad input", async () => {
    expect(
      await failure(() =>
        finance.reports.agingDebts(otherCtx, {
          asOf: "2030-06-30",
          kind: "receivable",
          currency: "UZS",
          bucket: "total",
          counterpartyId: ids.acme,
        }),
      ),
    ).toMatchObject({ code: "NOT_FOUND", reason: "finance.counterparty_not_found" });
    // Nothing of another tenant's shows in its own (empty) drill-down either.
    expect(
      await finance.reports.agingDebts(otherCtx, {
        asOf: "2030-06-30",
        kind: "receivable",
        currency: "UZS",
        bucket: "total",
      }),
    ).toMatchObject({ total: 0, left: "0", items: [] });
    const good = { asOf: "2030-06-30", kind: "receivable", currency: "UZS", bucket: "total" };
    for (const bad of [
      {},
      { ...good, bucket: "days1To31" },
      { ...good, kind: "both" },
      { ...good, currency: "uzs" },
      { ...good, asOf: "2030-02-30" },
      { ...good, limit: 1000 },
      { ...good, offset: -1 },
      { ...good, counterpartyId: "'; DROP TABLE debts; --" },
      { ...good, extra: "x" },
    ]) {
      expect(await failure(() => finance.reports.agingDebts(ctx, bad as never))).toMatchObject({
        code: "VALIDATION_ERROR",
      });
    }
  });
});

describe("balances on a date", () => {
  it.each([
    // The day before the first entry: nothing held yet, so no account at all.
    ["2029-06-19", []],
    // The day before the opening balance: only the dollars.
    ["2030-01-09", [["USD", "4000"]]],
    // The day of the opening balance.
    [
      "2030-01-10",
      [
        ["USD", "4000"],
        ["UZS", "5000000"],
      ],
    ],
    // Between checkpoints: after the payment of 2030-02-15 and the dollars of 2030-03-01.
    [
      "2030-03-15",
      [
        ["USD", "13000"],
        ["UZS", "5250000"],
      ],
    ],
  ])("at the end of %s", async (date, expected) => {
    const report = await finance.reports.balances(ctx, { date });
    expect(report.accounts.map((account) => [account.currency, account.balance])).toEqual(expected);
    expect(report.totals.map((total) => [total.currency, total.balance])).toEqual(expected);
  });

  it("today and later equal the stored balances", async () => {
    const stored = await finance.accounts.list(ctx, {});
    const report = await finance.reports.balances(ctx, { date: "2099-12-31" });
    expect(report.accounts.map((account) => [account.accountId, account.balance]).sort()).toEqual(
      stored.items.map((account) => [account.id, account.balance]).sort(),
    );
    // UZS: 5 000 000 + 250 000 + settlements in (300 000 + 40 000 + 60 000) − 100 000 out + 70 000.
    expect(report.totals).toEqual([
      { currency: "USD", balance: "13000", accounts: 1 },
      { currency: "UZS", balance: "5620000", accounts: 1 },
    ]);
  });

  it("answers 404 for another tenant's account and 400 for bad input", async () => {
    expect(
      await failure(() => finance.reports.balances(otherCtx, { date: "2030-06-30", accountId: ids.uzs })),
    ).toMatchObject({ code: "NOT_FOUND" });
    for (const bad of [{}, { date: "2030-13-01" }, { date: "2030-06-30", accountId: "nope" }]) {
      expect(await failure(() => finance.reports.balances(ctx, bad as never))).toMatchObject({
        code: "VALIDATION_ERROR",
      });
    }
  });
});

describe("counterparty statement", () => {
  it("lists everything with them in the period and what was owed each way before and after", async () => {
    const report = await finance.reports.counterpartyStatement(ctx, ids.acme, {
      startDate: "2030-06-11",
      endDate: "2030-06-30",
    });
    // Before 2030-06-11: receivables 1 000 000 + 500 000 + (800 000 − 300 000) + 100 000 = 2 100 000
    // UZS (R4 was written off today, before the period), 5 000 USD; the period settles 40 000 of R5.
    expect(report.counterparty).toEqual({ id: ids.acme, name: "Acme", tin: "" });
    expect(report.currencies).toEqual([
      {
        currency: "USD",
        openingReceivable: "5000",
        openingPayable: "0",
        closingReceivable: "5000",
        closingPayable: "0",
        received: "0",
        paid: "0",
      },
      {
        currency: "UZS",
        openingReceivable: "2100000",
        openingPayable: "0",
        closingReceivable: "2060000",
        closingPayable: "0",
        received: "110000",
        paid: "0",
      },
    ]);
    expect(
      report.entries.map((entry) => [entry.date, entry.type, entry.amount, entry.receivableChange]),
    ).toEqual([
      ["2030-06-12", "payment", "70000", "0"],
      ["2030-06-15", "settlement", "40000", "-40000"],
    ]);
  });

  it("shows the debts recorded and written off in the period", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const report = await finance.reports.counterpartyStatement(ctx, ids.acme, {
      startDate: today,
      endDate: today,
    });
    const recorded = report.entries.filter((entry) => entry.type === "debt");
    expect(recorded.map((entry) => entry.receivableChange).sort()).toEqual(
      ["100000", "1000000", "200000", "500000", "5000", "800000"].sort(),
    );
    expect(report.entries.filter((entry) => entry.type === "writeOff")).toMatchObject([
      { debtId: debts["R4 written off"], receivableChange: "-200000", description: "Gone bankrupt" },
    ]);
    // Recorded today; the settlements are dated 2030 (after the period): opening 0, closing all but R4.
    expect(report.currencies.find((c) => c.currency === "UZS")).toMatchObject({
      openingReceivable: "0",
      closingReceivable: "2400000",
    });
  });

  it("a counterparty with nothing has an empty statement; another tenant's is 404; bad input is 400", async () => {
    expect(
      await finance.reports.counterpartyStatement(ctx, ids.quiet, {
        startDate: "2030-01-01",
        endDate: "2030-12-31",
      }),
    ).toMatchObject({ currencies: [], entries: [] });
    expect(
      await failure(() =>
        finance.reports.counterpartyStatement(otherCtx, ids.acme, {
          startDate: "2030-01-01",
          endDate: "2030-12-31",
        }),
      ),
    ).toMatchObject({ code: "NOT_FOUND", reason: "finance.counterparty_not_found" });
    for (const bad of [
      { startDate: "2030-02-01", endDate: "2030-01-01" },
      { startDate: "2000-01-01", endDate: "2030-01-01" },
      { startDate: "2030-01-01" },
    ]) {
      expect(
        await failure(() => finance.reports.counterpartyStatement(ctx, ids.acme, bad as never)),
      ).toMatchObject({
        code: "VALIDATION_ERROR",
      });
    }
  });
});

describe("comparison with other periods", () => {
  const figure = (value: string, change: string, changePercent: string | null) => ({
    value,
    change,
    changePercent,
  });

  it("income statement: June 2030 beside May 2030 (no entries) and June 2029 (dollars only)", async () => {
    const report = await finance.reports.incomeStatement(ctx, {
      startDate: "2030-06-01",
      endDate: "2030-06-30",
      compare: ["previousPeriod", "previousYear"],
    });
    expect(report.comparedPeriods).toEqual([
      { compare: "previousPeriod", startDate: "2030-05-01", endDate: "2030-05-31" },
      { compare: "previousYear", startDate: "2029-06-01", endDate: "2029-06-30" },
    ]);
    // June 2030, UZS: settlements 300 000 + 40 000 and a payment of 70 000 in (the reversed 10 000 is
    // gone), 100 000 paid out. USD: nothing now, 4 000 a year ago — a section of zeros shows the fall.
    expect(
      report.currencies.map(({ currency, revenue, expenses, netIncome, compared }) => ({
        currency,
        revenue,
        expenses,
        netIncome,
        compared,
      })),
    ).toEqual([
      {
        currency: "USD",
        revenue: "0",
        expenses: "0",
        netIncome: "0",
        compared: [
          {
            compare: "previousPeriod",
            revenue: figure("0", "0", null),
            expenses: figure("0", "0", null),
            netIncome: figure("0", "0", null),
          },
          {
            compare: "previousYear",
            revenue: figure("4000", "-4000", "-100.00"),
            expenses: figure("0", "0", null),
            netIncome: figure("4000", "-4000", "-100.00"),
          },
        ],
      },
      {
        currency: "UZS",
        revenue: "410000",
        expenses: "100000",
        netIncome: "310000",
        compared: [
          {
            compare: "previousPeriod",
            revenue: figure("0", "410000", null),
            expenses: figure("0", "100000", null),
            netIncome: figure("0", "310000", null),
          },
          {
            compare: "previousYear",
            revenue: figure("0", "410000", null),
            expenses: figure("0", "100000", null),
            netIncome: figure("0", "310000", null),
          },
        ],
      },
    ]);
  });

  it("income statement: a period with no entries beside one with some", async () => {
    // April 2030 has nothing; March 2030 received 9 000 USD.
    const report = await finance.reports.incomeStatement(ctx, {
      startDate: "2030-04-01",
      endDate: "2030-04-30",
      compare: "previousPeriod",
    });
    expect(report.currencies).toEqual([
      {
        currency: "USD",
        revenue: "0",
        expenses: "0",
        netIncome: "0",
        compared: [
          {
            compare: "previousPeriod",
            revenue: figure("9000", "-9000", "-100.00"),
            expenses: figure("0", "0", null),
            netIncome: figure("9000", "-9000", "-100.00"),
          },
        ],
        revenueByCategory: [],
        expensesByCategory: [],
        byMonth: [],
      },
    ]);
  });

  it("cash flow: June 2030 beside May 2030, per account and per currency", async () => {
    const report = await finance.reports.cashflow(ctx, {
      startDate: "2030-06-01",
      endDate: "2030-06-30",
      compare: ["previousPeriod"],
    });
    const uzs = report.totals.find((total) => total.currency === "UZS");
    // May: 5 250 000 throughout. June: in 410 000, out 100 000 → 5 560 000.
    expect(uzs).toMatchObject({
      openingBalance: "5250000",
      closingBalance: "5560000",
      inflows: "410000",
      outflows: "100000",
    });
    expect(uzs?.compared).toEqual([
      expect.objectContaining({
        compare: "previousPeriod",
        openingBalance: figure("5250000", "0", "0.00"),
        closingBalance: figure("5250000", "310000", "5.90"),
        inflows: figure("0", "410000", null),
        outflows: figure("0", "100000", null),
      }),
    ]);
    const account = report.accounts.find((each) => each.accountId === ids.uzs);
    expect(account?.compared).toEqual(uzs?.compared);
  });

  it("refuses an unknown comparison", async () => {
    for (const compare of ["lastWeek", ["previousYear", "nope"], []]) {
      expect(
        await failure(() =>
          finance.reports.incomeStatement(ctx, {
            startDate: "2030-06-01",
            endDate: "2030-06-30",
            compare,
          } as never),
        ),
      ).toMatchObject({ code: "VALIDATION_ERROR" });
    }
  });
});

describe("downloads add up to the JSON", () => {
  it("aging: each kind-and-currency block's total row is its JSON total, in the caller's language", async () => {
    const json = await finance.reports.aging(ctx, { asOf: "2030-06-30" });
    const book = await workbookOf(
      await finance.exports.aging({ ...ctx, locale: "ru" }, { asOf: "2030-06-30" }),
    );
    const sheet = book.worksheets[0];
    expect(sheet?.name).toBe("Старение долгов");
    expect((sheet?.getRow(1).values as unknown[]).slice(1)).toContain("Просрочка 61–90 дней");
    const totals = bodyRows(sheet).filter((row) => row[1] === "Итого");
    expect(totals.map((row) => [row[2], row[3], ...row.slice(4).map(minorOf)])).toEqual(
      json.totals.map((total) => [
        total.currency,
        total.debts,
        ...[total.notDue, total.days1To30, total.days31To60, total.days61To90, total.over90, total.total].map(
          BigInt,
        ),
      ]),
    );
  });

  it("balances: per currency the accounts and their total", async () => {
    const json = await finance.reports.balances(ctx, { date: "2030-03-15" });
    const book = await workbookOf(
      await finance.exports.balances({ ...ctx, locale: "uz" }, { date: "2030-03-15" }),
    );
    const rows = bodyRows(book.worksheets[0]);
    expect(book.worksheets[0]?.name).toBe("Qoldiqlar");
    expect(rows.filter((row) => row[0] === "Jami").map((row) => [row[2], minorOf(row[3])])).toEqual(
      json.totals.map((total) => [total.currency, BigInt(total.balance)]),
    );
  });

  it("counterparty statement: opening plus the entries is the closing row, which is the JSON's", async () => {
    const query = { startDate: "2030-06-11", endDate: "2030-06-30" };
    const json = await finance.reports.counterpartyStatement(ctx, ids.acme, query);
    const book = await workbookOf(await finance.exports.counterpartyStatement(ctx, ids.acme, query));
    const rows = bodyRows(book.worksheets[0]);
    const closing = rows.filter((row) => row[1] === "Closing balance");
    expect(closing.map((row) => [row[3], minorOf(row[5]), minorOf(row[6])])).toEqual(
      json.currencies.map((c) => [c.currency, BigInt(c.closingReceivable), BigInt(c.closingPayable)]),
    );
    expect(rows.filter((row) => row[1] === "Settlement")).toHaveLength(1);
  });

  it("income statement with a comparison: a comparison sheet with the JSON's figures", async () => {
    const query = { startDate: "2030-06-01", endDate: "2030-06-30", compare: "previousYear" as const };
    const json = await finance.reports.incomeStatement(ctx, query);
    const book = await workbookOf(await finance.exports.incomeStatement(ctx, query));
    const sheet = book.getWorksheet("Comparison");
    const rows = bodyRows(sheet);
    expect(
      rows.map((row) => [row[1], row[2], minorOf(row[4]), minorOf(row[5]), minorOf(row[6]), row[7] ?? null]),
    ).toEqual(
      json.currencies.flatMap((section) =>
        (["revenue", "expenses", "netIncome"] as const).map((key) => [
          section.currency,
          { revenue: "Revenue", expenses: "Expenses", netIncome: "Net income" }[key],
          BigInt(section[key]),
          BigInt(section.compared[0]?.[key].value ?? "x"),
          BigInt(section.compared[0]?.[key].change ?? "x"),
          section.compared[0]?.[key].changePercent ?? null,
        ]),
      ),
    );
  });

  it("cash flow with a comparison: every figure of every account and currency beside the compared one", async () => {
    const query = { startDate: "2030-06-01", endDate: "2030-06-30", compare: "previousPeriod" as const };
    const json = await finance.reports.cashflow(ctx, query);
    const book = await workbookOf(await finance.exports.cashflow({ ...ctx, locale: "uz" }, query));
    const rows = bodyRows(book.getWorksheet("Taqqoslash"));
    expect(rows).toHaveLength((json.accounts.length + json.totals.length) * 10);
    const closing = rows.find((row) => row[0] === "Jami" && row[1] === "UZS" && row[2] === "Yakuniy qoldiq");
    const uzs = json.totals.find((total) => total.currency === "UZS");
    expect([minorOf(closing?.[4]), minorOf(closing?.[5]), minorOf(closing?.[6]), closing?.[7]]).toEqual([
      BigInt(uzs?.closingBalance ?? "x"),
      BigInt(uzs?.compared[0]?.closingBalance.value ?? "x"),
      BigInt(uzs?.compared[0]?.closingBalance.change ?? "x"),
      uzs?.compared[0]?.closingBalance.changePercent,
    ]);
  });
});
