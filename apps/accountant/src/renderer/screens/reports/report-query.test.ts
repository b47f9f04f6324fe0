import { describe, expect, it } from "vitest";
import {
  accountsOf,
  documentsHref,
  monthWithin,
  readDocumentFilters,
  readReportParams,
  reportFilters,
  reportPresetOf,
  reportPresetPeriod,
  reportSearch,
  withAccounts,
} from "./report-query";

const ACCOUNT = "0b7c1f4e-2d3a-4c5b-8e9f-0a1b2c3d4e5f";
const OTHER = "0b7c1f4e-2d3a-4c5b-8e9f-0a1b2c3d4e60";
const CATEGORY = "1b7c1f4e-2d3a-4c5b-8e9f-0a1b2c3d4e5f";
const COUNTERPARTY = "2b7c1f4e-2d3a-4c5b-8e9f-0a1b2c3d4e5f";

describe("a report in the address", () => {
  it("reads each preset's dates on any day, the last quarter across a new year too", () => {
    const today = "2026-02-10";
    expect(reportPresetPeriod("thisMonth", today)).toEqual({ start: "2026-02-01", end: "2026-02-28" });
    expect(reportPresetPeriod("lastMonth", today)).toEqual({ start: "2026-01-01", end: "2026-01-31" });
    expect(reportPresetPeriod("thisQuarter", today)).toEqual({ start: "2026-01-01", end: "2026-03-31" });
    expect(reportPresetPeriod("lastQuarter", today)).toEqual({ start: "2025-10-01", end: "2025-12-31" });
    expect(reportPresetPeriod("lastQuarter", "2026-11-29")).toEqual({
      start: "2026-07-01",
      end: "2026-09-30",
    });
    expect(reportPresetPeriod("thisYear", today)).toEqual({ start: "2026-01-01", end: "2026-12-31" });
    expect(reportPresetPeriod("lastYear", today)).toEqual({ start: "2025-01-01", end: "2025-12-31" });
    expect(reportPresetOf({ start: "2025-10-01", end: "2025-12-31" }, today)).toBe("lastQuarter");
    expect(reportPresetOf({ start: "2026-01-05", end: "2026-02-01" }, today)).toBe("custom");
  });

  it("round-trips period, account and step, and falls back to this month for what it cannot read", () => {
    const report = {
      start: "2026-01-05",
      end: "2026-02-01",
      accountId: ACCOUNT,
      granularity: "week" as const,
    };
    expect(readReportParams(new URLSearchParams(reportSearch(report)), "2026-02-10")).toEqual(report);
    expect(reportSearch({ ...report, accountId: null, granularity: "month" })).toBe(
      "?start=2026-01-05&end=2026-02-01",
    );
    const unreadable = new URLSearchParams("start=2026-03-01&end=2026-02-01&account=x&by=year");
    expect(readReportParams(unreadable, "2026-02-10")).toEqual({
      start: "2026-02-01",
      end: "2026-02-28",
      accountId: null,
      granularity: "month",
    });
  });

  it("round-trips several accounts, categories, counterparties and the comparison; drops what it cannot read", () => {
    const report = {
      start: "2026-01-01",
      end: "2026-01-31",
      ...withAccounts([ACCOUNT, OTHER]),
      granularity: "month" as const,
      categoryIds: [CATEGORY],
      counterpartyIds: [COUNTERPARTY],
      compare: "previousYear" as const,
    };
    const search = reportSearch(report);
    expect(search).toBe(
      `?start=2026-01-01&end=2026-01-31&account=${ACCOUNT}&account=${OTHER}&category=${CATEGORY}&counterparty=${COUNTERPARTY}&compare=previousYear`,
    );
    expect(readReportParams(new URLSearchParams(search), "2026-02-10")).toEqual(report);
    expect(accountsOf(report)).toEqual([ACCOUNT, OTHER]);
    // The server's query: each filter as a list of ids, only those the report takes.
    expect(reportFilters(report, { categories: true, compare: true })).toEqual({
      accountId: [ACCOUNT, OTHER],
      categoryId: [CATEGORY],
      compare: "previousYear",
    });
    expect(reportFilters({ ...report, ...withAccounts([]) })).toEqual({});
    // One account is the single-account form every report reads; junk is dropped, repeats once.
    const junk = new URLSearchParams(
      `start=2026-01-01&end=2026-01-31&account=${ACCOUNT}&account=${ACCOUNT}&category=x&counterparty=1;drop&compare=tomorrow`,
    );
    expect(readReportParams(junk, "2026-02-10")).toEqual({
      start: "2026-01-01",
      end: "2026-01-31",
      accountId: ACCOUNT,
      granularity: "month",
    });
  });

  it("drills into the list filtered exactly as the figure, a month cut to the report's period", () => {
    expect(monthWithin("2026-01", { start: "2026-01-05", end: "2026-02-01" })).toEqual({
      start: "2026-01-05",
      end: "2026-01-31",
    });
    const href = documentsHref("payments", {
      from: "2026-01-05",
      to: "2026-01-31",
      accountId: ACCOUNT,
      categoryId: null,
    });
    expect(href).toBe(`/payments?from=2026-01-05&to=2026-01-31&accountId=${ACCOUNT}`);
    expect(readDocumentFilters(new URLSearchParams(href.split("?")[1]))).toEqual({
      accountId: ACCOUNT,
      categoryId: undefined,
      counterpartyId: undefined,
      from: "2026-01-05",
      to: "2026-01-31",
    });
    expect(readDocumentFilters(new URLSearchParams("accountId=1;drop&from=yesterday"))).toEqual({
      accountId: undefined,
      categoryId: undefined,
      counterpartyId: undefined,
      from: undefined,
      to: undefined,
    });
  });
});
