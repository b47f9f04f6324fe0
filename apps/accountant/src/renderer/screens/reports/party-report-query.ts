import { DEBT_KINDS, DEBT_STATUSES } from "@hisob/finance/schema";
import { documentsHref } from "./report-query";

/*
 * What the aging, balances-on-a-date and counterparty-statement reports keep in the address (decision
 * 0087): the day (`date`) the first two are read at, the counterparty (`counterparty`) of the third —
 * beside the period (`start`, `end`) the other reports share — and the addresses their figures drill
 * into. Pure functions, so a bookmark, a reload and a shared link read the same report.
 */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `date` moved by `days` (calendar days, UTC). */
export const addDays = (date: string, days: number): string => {
  const [year = 1970, month = 1, day = 1] = date.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
};

/** The day in the address (`date`), or today when it is missing or unreadable. */
export const readReportDate = (params: URLSearchParams, today: string): string => {
  const date = params.get("date") ?? "";
  return ISO_DATE.test(date) && addDays(date, 0) === date ? date : today;
};

/** The counterparty in the address, when it is one. */
export const readCounterparty = (params: URLSearchParams): string | null => {
  const id = params.get("counterparty") ?? "";
  return UUID.test(id) ? id : null;
};

export const AGING_BUCKETS = ["notDue", "days1To30", "days31To60", "days61To90", "over90"] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

/**
 * The due dates a bucket holds at the end of `asOf`, as the debts list's strict bounds (due after,
 * due before). Days past due = `asOf` − due date, as the server buckets them: 1–30 days is a due date
 * from `asOf` − 30 to `asOf` − 1. "Not yet due" is the list's own filter: due on `asOf` or later, or
 * without a due date.
 */
export const bucketDueRange = (
  bucket: AgingBucket | "total",
  asOf: string,
): { dueAfter?: string; dueBefore?: string; notDueOn?: string } => {
  switch (bucket) {
    case "notDue":
      return { notDueOn: asOf };
    case "days1To30":
      return { dueAfter: addDays(asOf, -31), dueBefore: asOf };
    case "days31To60":
      return { dueAfter: addDays(asOf, -61), dueBefore: addDays(asOf, -30) };
    case "days61To90":
      return { dueAfter: addDays(asOf, -91), dueBefore: addDays(asOf, -60) };
    case "over90":
      return { dueBefore: addDays(asOf, -90) };
    default:
      return {};
  }
};

export type AgingDrill = {
  kind: "receivable" | "payable";
  currency: string;
  bucket: AgingBucket | "total";
  asOf: string;
  counterpartyId?: string | null;
  /** Open debts only when the report is read today (or later): what is open now was open then. */
  today: string;
};

/** The debts list, filtered as one aging figure counts them. */
export const agingDebtsHref = (drill: AgingDrill): string => {
  const params = new URLSearchParams({ kind: drill.kind, currency: drill.currency });
  if (drill.counterpartyId) params.set("counterpartyId", drill.counterpartyId);
  const range = bucketDueRange(drill.bucket, drill.asOf);
  if (range.dueAfter) params.set("dueAfter", range.dueAfter);
  if (range.dueBefore) params.set("dueBefore", range.dueBefore);
  if (range.notDueOn) params.set("notDueOn", range.notDueOn);
  if (drill.asOf >= drill.today) params.set("open", "true");
  return `/debts?${params.toString()}`;
};

/**
 * A figure of the aging read at a past day opens the exact debts behind it on the report itself
 * (decision 0106): the figure's kind, currency, column and counterparty in the address (`debts`), so
 * Back closes the list and a reload or a shared link reopens it.
 */
export type AgingFigure = {
  kind: "receivable" | "payable";
  currency: string;
  bucket: AgingBucket | "total";
  counterpartyId: string | null;
};

const AGING_COLUMNS: readonly string[] = [...AGING_BUCKETS, "total"];

export const agingFigureValue = (figure: AgingFigure): string =>
  [
    figure.kind,
    figure.currency,
    figure.bucket,
    ...(figure.counterpartyId ? [figure.counterpartyId] : []),
  ].join(".");

/** The figure in the address, when it is one. */
export const readAgingFigure = (params: URLSearchParams): AgingFigure | null => {
  const [kind = "", currency = "", bucket = "", counterpartyId, ...rest] = (params.get("debts") ?? "").split(
    ".",
  );
  if (kind !== "receivable" && kind !== "payable") return null;
  if (!/^[A-Z]{3}$/.test(currency) || !AGING_COLUMNS.includes(bucket) || rest.length > 0) return null;
  if (counterpartyId !== undefined && !UUID.test(counterpartyId)) return null;
  return { kind, currency, bucket: bucket as AgingFigure["bucket"], counterpartyId: counterpartyId ?? null };
};

/**
 * Where an aging figure opens: read at today or later, the debts list filtered as the figure counts
 * them (open debts: what is open now was open then); at a past day, the figure's own debts with
 * what was left of each then, on the report (`debts`, above).
 */
export const agingFigureHref = (
  figure: AgingFigure,
  report: { asOf: string; today: string; search: URLSearchParams },
): string => {
  if (report.asOf >= report.today)
    return agingDebtsHref({ ...figure, asOf: report.asOf, today: report.today });
  const search = new URLSearchParams(report.search);
  search.set("date", report.asOf);
  search.set("debts", agingFigureValue(figure));
  return `/reports/aging?${search.toString()}`;
};

/** The account statement from the first of the month to the end of `date`. */
export const statementToDateHref = (accountId: string, date: string): string =>
  `/reports/statement?start=${date.slice(0, 8)}01&end=${date}&account=${accountId}`;

/** A counterparty's statement over a period. */
export const counterpartyStatementHref = (counterpartyId: string, period?: { start: string; end: string }) =>
  `/reports/counterparty?${new URLSearchParams({
    ...(period ? { start: period.start, end: period.end } : {}),
    counterparty: counterpartyId,
  }).toString()}`;

export type StatementEntryLink = {
  type: "payment" | "expense" | "debt" | "settlement" | "writeOff" | "transfer" | "exchange";
  date: string;
  amount: string;
  debtId: string | null;
  accountId: string | null;
};

/** Where a counterparty statement's entry comes from: its debt, its day's documents, or its account's day. */
export const statementEntryHref = (entry: StatementEntryLink, counterpartyId: string): string | null => {
  const day = { from: entry.date, to: entry.date, counterpartyId };
  if (entry.type === "debt" || entry.type === "writeOff" || entry.type === "settlement")
    return entry.debtId ? `/debts/${entry.debtId}` : null;
  if (entry.type === "payment") return documentsHref("payments", day);
  if (entry.type === "expense") return documentsHref("expenses", day);
  return entry.accountId ? `/accounts/${entry.accountId}?start=${entry.date}&end=${entry.date}` : null;
};

/** The debts list's filters as its address carries them (what a report's figure links to). */
export type DebtListFilters = {
  status?: string;
  kind?: string;
  counterpartyId?: string;
  currency?: string;
  dueAfter?: string;
  dueBefore?: string;
  notDueOn?: string;
  open?: boolean;
  overdue?: boolean;
};

const KEYS = ["status", "kind", "counterpartyId", "currency", "dueAfter", "dueBefore", "notDueOn"] as const;

export const readDebtFilters = (params: URLSearchParams): DebtListFilters => {
  const filters: DebtListFilters = {};
  for (const key of KEYS) {
    const value = params.get(key);
    if (!value) continue;
    if ((key === "dueAfter" || key === "dueBefore" || key === "notDueOn") && !ISO_DATE.test(value)) continue;
    if (key === "counterpartyId" && !UUID.test(value)) continue;
    if (key === "currency" && !/^[A-Z]{3}$/.test(value)) continue;
    if (key === "status" && !(DEBT_STATUSES as readonly string[]).includes(value)) continue;
    if (key === "kind" && !(DEBT_KINDS as readonly string[]).includes(value)) continue;
    filters[key] = value;
  }
  if (params.get("open") === "true") filters.open = true;
  if (params.get("overdue") === "true") filters.overdue = true;
  return filters;
};

export const debtFiltersSearch = (filters: DebtListFilters): URLSearchParams => {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  if (filters.open) params.set("open", "true");
  if (filters.overdue) params.set("overdue", "true");
  return params;
};
