import { type Period, presetPeriod } from "../../components/period";

/*
 * What a report shows, as it lives in the address: the period (`start`, `end`), one account, several
 * (`account` repeated) or all, the categories and counterparties it is limited to (`category`,
 * `counterparty`, repeated), the period it is compared with (`compare`) and the cash flow's step (`by`). Pure functions, so a bookmark, a reload and a shared
 * link read the same report, and the drill-down links say exactly what a figure counts.
 */

export const REPORT_PRESETS = [
  "thisMonth",
  "lastMonth",
  "thisQuarter",
  "lastQuarter",
  "thisYear",
  "lastYear",
] as const;
export type ReportPreset = (typeof REPORT_PRESETS)[number];
export const GRANULARITIES = ["day", "week", "month"] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** What a report can be compared with (the server's `compare`). */
export const COMPARE_PERIODS = ["previousPeriod", "previousYear"] as const;
export type ComparePeriod = (typeof COMPARE_PERIODS)[number];

export type ReportParams = {
  start: string;
  end: string;
  /** The one account, or the first of several. */
  accountId: string | null;
  granularity: Granularity;
  /** Several accounts (set only when more than one is chosen; see `accountsOf`). */
  accountIds?: string[];
  /** Payment and expense categories the report is limited to (set only when some are). */
  categoryIds?: string[];
  counterpartyIds?: string[];
  compare?: ComparePeriod;
};

/** Every account the report is limited to (none: all). */
export const accountsOf = (report: Pick<ReportParams, "accountId" | "accountIds">): string[] =>
  report.accountIds ?? (report.accountId ? [report.accountId] : []);

/** The change that limits a report to `ids` (none: all accounts). */
export const withAccounts = (ids: string[]): Pick<ReportParams, "accountId" | "accountIds"> => ({
  accountId: ids[0] ?? null,
  accountIds: ids.length > 1 ? ids : undefined,
});
export type DatedPeriod = { start: string; end: string };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const iso = (year: number, month: number, day: number) =>
  new Date(Date.UTC(year, month, day)).toISOString().slice(0, 10);

/** A preset's dates on `today`; the last quarter is the one before this quarter. */
export const reportPresetPeriod = (preset: ReportPreset, today: string): DatedPeriod => {
  if (preset === "lastQuarter") {
    const [year = 1970, month = 1] = today.split("-").map(Number);
    const quarter = Math.floor((month - 1) / 3) * 3;
    return { start: iso(year, quarter - 3, 1), end: iso(year, quarter, 0) };
  }
  const period = presetPeriod(preset, today) as Period;
  return { start: period.start ?? today, end: period.end ?? today };
};

export const reportPresetOf = (period: DatedPeriod, today: string): ReportPreset | "custom" =>
  REPORT_PRESETS.find((preset) => {
    const dates = reportPresetPeriod(preset, today);
    return dates.start === period.start && dates.end === period.end;
  }) ?? "custom";

/** The report in the address; anything unreadable falls back to this month, all accounts, by month. */
export const readReportParams = (params: URLSearchParams, today: string): ReportParams => {
  const start = params.get("start") ?? "";
  const end = params.get("end") ?? "";
  const dated = ISO_DATE.test(start) && ISO_DATE.test(end) && start <= end;
  const period = dated ? { start, end } : reportPresetPeriod("thisMonth", today);
  const ids = (key: string) => [...new Set(params.getAll(key).filter((id) => UUID.test(id)))].slice(0, 100);
  const by = params.get("by");
  const compare = COMPARE_PERIODS.find((value) => value === params.get("compare"));
  const categoryIds = ids("category");
  const counterpartyIds = ids("counterparty");
  return {
    ...period,
    ...withAccounts(ids("account")),
    granularity: GRANULARITIES.find((value) => value === by) ?? "month",
    ...(categoryIds.length > 0 ? { categoryIds } : {}),
    ...(counterpartyIds.length > 0 ? { counterpartyIds } : {}),
    ...(compare ? { compare } : {}),
  };
};

/** The address of a report: every field that is not its default. */
export const reportSearch = (report: ReportParams): string => {
  const params = new URLSearchParams({ start: report.start, end: report.end });
  for (const id of accountsOf(report)) params.append("account", id);
  for (const id of report.categoryIds ?? []) params.append("category", id);
  for (const id of report.counterpartyIds ?? []) params.append("counterparty", id);
  if (report.compare) params.set("compare", report.compare);
  if (report.granularity !== "month") params.set("by", report.granularity);
  return `?${params.toString()}`;
};

/**
 * The server's query filters of a report: accounts, categories and counterparties (each one id or
 * several) and the comparison — the same for its JSON and its .xlsx.
 */
export const reportFilters = (
  report: ReportParams,
  fits: { categories?: boolean; counterparties?: boolean; compare?: boolean } = {},
) => {
  const accounts = accountsOf(report);
  return {
    ...(accounts.length > 0 ? { accountId: accounts } : {}),
    ...(fits.categories && report.categoryIds ? { categoryId: report.categoryIds } : {}),
    ...(fits.counterparties && report.counterpartyIds ? { counterpartyId: report.counterpartyIds } : {}),
    ...(fits.compare && report.compare ? { compare: report.compare } : {}),
  };
};

/** The income statement's query (its JSON and its .xlsx): period, accounts, categories, counterparties, comparison. */
export const incomeStatementInput = (report: ReportParams) => ({
  startDate: report.start,
  endDate: report.end,
  ...reportFilters(report, { categories: true, counterparties: true, compare: true }),
});

/** A month ("2026-11") as the dates it covers within the report's period. */
export const monthWithin = (month: string, period: DatedPeriod): DatedPeriod => {
  const [year = 1970, m = 1] = month.split("-").map(Number);
  const first = iso(year, m - 1, 1);
  const last = iso(year, m, 0);
  return {
    start: first < period.start ? period.start : first,
    end: last > period.end ? period.end : last,
  };
};

export type DrillFilter = {
  from: string;
  to: string;
  accountId?: string | null;
  categoryId?: string | null;
  counterpartyId?: string | null;
};

/** The payments or expenses list, filtered as one figure counts them. */
export const documentsHref = (kind: "payments" | "expenses", filter: DrillFilter): string => {
  const params = new URLSearchParams({ from: filter.from, to: filter.to });
  if (filter.accountId) params.set("accountId", filter.accountId);
  if (filter.categoryId) params.set("categoryId", filter.categoryId);
  if (filter.counterpartyId) params.set("counterpartyId", filter.counterpartyId);
  return `/${kind}?${params.toString()}`;
};

/** An account's entries (transfers and exchanges among them) over a period. */
export const accountHref = (accountId: string, period: DatedPeriod): string =>
  `/accounts/${accountId}?start=${period.start}&end=${period.end}`;

/** The list filters the payments and expenses screens read from their address. */
export const readDocumentFilters = (params: URLSearchParams) => {
  const pick = (key: string, pattern: RegExp) => {
    const value = params.get(key);
    return value && pattern.test(value) ? value : undefined;
  };
  return {
    accountId: pick("accountId", UUID),
    categoryId: pick("categoryId", UUID),
    counterpartyId: pick("counterpartyId", UUID),
    from: pick("from", ISO_DATE),
    to: pick("to", ISO_DATE),
  };
};
