import { describe, expect, it } from "vitest";
import { dayPresetDate } from "./party-report-frame";
import {
  addDays,
  agingDebtsHref,
  agingFigureHref,
  agingFigureValue,
  bucketDueRange,
  counterpartyStatementHref,
  debtFiltersSearch,
  readAgingFigure,
  readCounterparty,
  readDebtFilters,
  readReportDate,
  statementEntryHref,
  statementToDateHref,
} from "./party-report-query";

const ID = "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f";
const params = (text: string) => new URLSearchParams(text);

describe("the aging, balances and counterparty reports' addresses", () => {
  it("reads the day, falling back to today for a missing or impossible one", () => {
    expect(readReportDate(params("date=2026-03-31"), "2026-11-29")).toBe("2026-03-31");
    expect(readReportDate(params(""), "2026-11-29")).toBe("2026-11-29");
    expect(readReportDate(params("date=2026-02-30"), "2026-11-29")).toBe("2026-11-29");
    expect(readReportDate(params("date=31.03.2026"), "2026-11-29")).toBe("2026-11-29");
    expect(readCounterparty(params(`counterparty=${ID}`))).toBe(ID);
    expect(readCounterparty(params("counterparty=1"))).toBeNull();
  });

  it("moves days across months and years", () => {
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2024-03-01", -1)).toBe("2024-02-29");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });

  it("gives the day presets: today, the ends of last month, quarter and year", () => {
    expect(dayPresetDate("today", "2026-11-29")).toBe("2026-11-29");
    expect(dayPresetDate("endOfLastMonth", "2026-03-15")).toBe("2026-02-28");
    expect(dayPresetDate("endOfLastQuarter", "2026-11-29")).toBe("2026-09-30");
    expect(dayPresetDate("endOfLastQuarter", "2026-02-10")).toBe("2025-12-31");
    expect(dayPresetDate("endOfLastYear", "2026-11-29")).toBe("2025-12-31");
  });

  it("turns a bucket into the due dates it holds, as the server counts days past due", () => {
    // asOf − due: 1..30 days late is due from Oct 30 to Nov 28 (strict bounds Oct 29 and Nov 29).
    expect(bucketDueRange("days1To30", "2026-11-29")).toEqual({
      dueAfter: "2026-10-29",
      dueBefore: "2026-11-29",
    });
    expect(bucketDueRange("days31To60", "2026-11-29")).toEqual({
      dueAfter: "2026-09-29",
      dueBefore: "2026-10-30",
    });
    expect(bucketDueRange("days61To90", "2026-11-29")).toEqual({
      dueAfter: "2026-08-30",
      dueBefore: "2026-09-30",
    });
    expect(bucketDueRange("over90", "2026-11-29")).toEqual({ dueBefore: "2026-08-31" });
    expect(bucketDueRange("notDue", "2026-11-29")).toEqual({ notDueOn: "2026-11-29" });
    expect(bucketDueRange("total", "2026-11-29")).toEqual({});
  });

  it("links an aging figure to the debts list filtered as it counts them", () => {
    const href = agingDebtsHref({
      kind: "payable",
      currency: "UZS",
      bucket: "days31To60",
      asOf: "2026-11-29",
      today: "2026-11-29",
      counterpartyId: ID,
    });
    expect(href).toBe(
      `/debts?kind=payable&currency=UZS&counterpartyId=${ID}&dueAfter=2026-09-29&dueBefore=2026-10-30&open=true`,
    );
    // A day in the past: what is open now says nothing of then, so the list is not narrowed to it.
    expect(
      agingDebtsHref({
        kind: "receivable",
        currency: "USD",
        bucket: "total",
        asOf: "2026-06-30",
        today: "2026-11-29",
      }),
    ).toBe("/debts?kind=receivable&currency=USD");
  });

  it("reads back the debts list's filters it wrote, dropping what the server would refuse", () => {
    const filters = readDebtFilters(
      params(
        `kind=payable&currency=UZS&counterpartyId=${ID}&dueAfter=2026-09-29&dueBefore=2026-10-30&open=true`,
      ),
    );
    expect(filters).toEqual({
      kind: "payable",
      currency: "UZS",
      counterpartyId: ID,
      dueAfter: "2026-09-29",
      dueBefore: "2026-10-30",
      open: true,
    });
    expect(readDebtFilters(debtFiltersSearch(filters))).toEqual(filters);
    expect(
      readDebtFilters(
        params(
          agingDebtsHref({
            kind: "receivable",
            currency: "USD",
            bucket: "notDue",
            asOf: "2026-11-29",
            today: "2026-11-29",
          }).split("?")[1] ?? "",
        ),
      ),
    ).toEqual({ kind: "receivable", currency: "USD", notDueOn: "2026-11-29", open: true });
    expect(
      readDebtFilters(params("kind=owed&status=gone&currency=uzs&dueAfter=yesterday&counterpartyId=7")),
    ).toEqual({});
  });

  it("links balances, statements and a statement's entries to what is behind them", () => {
    expect(statementToDateHref(ID, "2026-10-17")).toBe(
      `/reports/statement?start=2026-10-01&end=2026-10-17&account=${ID}`,
    );
    expect(counterpartyStatementHref(ID)).toBe(`/reports/counterparty?counterparty=${ID}`);
    expect(counterpartyStatementHref(ID, { start: "2026-10-01", end: "2026-10-31" })).toBe(
      `/reports/counterparty?start=2026-10-01&end=2026-10-31&counterparty=${ID}`,
    );
    const entry = { date: "2026-10-05", amount: "100", debtId: null, accountId: ID };
    expect(statementEntryHref({ ...entry, type: "payment" }, ID)).toBe(
      `/payments?from=2026-10-05&to=2026-10-05&counterpartyId=${ID}`,
    );
    expect(statementEntryHref({ ...entry, type: "expense" }, ID)).toBe(
      `/expenses?from=2026-10-05&to=2026-10-05&counterpartyId=${ID}`,
    );
    expect(statementEntryHref({ ...entry, type: "settlement", debtId: ID }, ID)).toBe(`/debts/${ID}`);
    expect(statementEntryHref({ ...entry, type: "transfer" }, ID)).toBe(
      `/accounts/${ID}?start=2026-10-05&end=2026-10-05`,
    );
  });

  it("opens a past day's aging figure on the report, today's in the debts list (decision 0106)", () => {
    const figure = { kind: "receivable", currency: "UZS", bucket: "days1To30", counterpartyId: ID } as const;
    const search = params("date=2026-06-30&debts=payable.USD.total");
    expect(agingFigureHref(figure, { asOf: "2026-06-30", today: "2026-11-29", search })).toBe(
      `/reports/aging?date=2026-06-30&debts=receivable.UZS.days1To30.${ID}`,
    );
    expect(agingFigureHref(figure, { asOf: "2026-11-29", today: "2026-11-29", search })).toBe(
      `/debts?kind=receivable&currency=UZS&counterpartyId=${ID}&dueAfter=2026-10-29&dueBefore=2026-11-29&open=true`,
    );
    expect(readAgingFigure(params(`debts=${agingFigureValue(figure)}`))).toEqual(figure);
    const total = { kind: "payable", currency: "USD", bucket: "total", counterpartyId: null } as const;
    expect(readAgingFigure(params(`debts=${agingFigureValue(total)}`))).toEqual(total);
    for (const bad of [
      "",
      "debts=",
      "debts=both.UZS.total",
      "debts=receivable.uzs.total",
      "debts=receivable.UZS.x",
      "debts=receivable.UZS.total.1",
      `debts=receivable.UZS.total.${ID}.x`,
    ])
      expect(readAgingFigure(params(bad))).toBeNull();
  });
});
