import { readReportDate } from "./party-report-query";
import { type ComparePeriod, type DatedPeriod, documentsHref, readReportParams } from "./report-query";

/*
 * The books' reports in the address (docs/decisions/0101-books-reports.md): the period and its
 * comparison as every report writes them (`start`, `end`, `compare`), the day of the balance sheet
 * (`date`) and the day it is compared with (`compareDate`), the account of the chart whose general
 * ledger is shown (`gl`). Pure functions, so a bookmark, a reload and a drill-down link read alike.
 */

export type BooksKind = "trial-balance" | "general-ledger" | "balance-sheet" | "profit-and-loss";
export const BOOKS_KINDS: BooksKind[] = [
  "trial-balance",
  "general-ledger",
  "balance-sheet",
  "profit-and-loss",
];

export type BooksParams = DatedPeriod & {
  date: string;
  compare?: ComparePeriod;
  compareDate: string | null;
  glAccountId: string | null;
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const readBooksParams = (params: URLSearchParams, today: string): BooksParams => {
  const { start, end, compare } = readReportParams(params, today);
  const compareDate = params.get("compareDate");
  const gl = params.get("gl");
  return {
    start,
    end,
    ...(compare ? { compare } : {}),
    date: readReportDate(params, today),
    // A day that does not exist (2026-02-30) is no comparison, as readReportDate treats its day.
    compareDate:
      compareDate &&
      ISO_DATE.test(compareDate) &&
      readReportDate(new URLSearchParams({ date: compareDate }), "") === compareDate
        ? compareDate
        : null,
    glAccountId: gl && UUID.test(gl) ? gl : null,
  };
};

/** The address after `change`, keeping whatever else it holds (the other reports' filters). */
export const booksSearch = (current: URLSearchParams, change: Partial<BooksParams>): URLSearchParams => {
  const next = new URLSearchParams(current);
  const set = (key: string, value: string | null | undefined) =>
    value ? next.set(key, value) : next.delete(key);
  if ("start" in change) set("start", change.start);
  if ("end" in change) set("end", change.end);
  if ("compare" in change) set("compare", change.compare);
  if ("date" in change) set("date", change.date);
  if ("compareDate" in change) set("compareDate", change.compareDate);
  if ("glAccountId" in change) set("gl", change.glAccountId);
  return next;
};

/** The general ledger of an account of the chart over a period: where a report's figure leads. */
export const generalLedgerHref = (accountId: string, period: DatedPeriod): string =>
  `/reports/general-ledger?start=${period.start}&end=${period.end}&gl=${accountId}`;

/** A balance at the end of a day, as a period: the year up to that day (opening, lines, the balance). */
export const yearToDate = (date: string): DatedPeriod => ({ start: `${date.slice(0, 4)}-01-01`, end: date });

export type LedgerDocument = {
  date: string;
  document: { kind: string; id: string };
  moneyAccountId: string | null;
};

/**
 * Where a general-ledger line's document opens: a debt (its settlements and write-off too) on its own
 * page; a payment or expense in its list on that day; a transfer, exchange or opening balance among
 * its money account's entries of that day; anything else nowhere (null).
 */
export const ledgerDocumentHref = (line: LedgerDocument): string | null => {
  const day = { from: line.date, to: line.date };
  switch (line.document.kind) {
    case "debt":
    case "settlement":
      return `/debts/${line.document.id}`;
    case "payment":
      return documentsHref("payments", { ...day, accountId: line.moneyAccountId });
    case "expense":
      return documentsHref("expenses", { ...day, accountId: line.moneyAccountId });
    case "transfer":
    case "exchange":
    case "opening_balance":
      return line.moneyAccountId
        ? `/accounts/${line.moneyAccountId}?start=${line.date}&end=${line.date}`
        : "/transfers";
    default:
      return null;
  }
};
