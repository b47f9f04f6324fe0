import { BOOKS_KINDS, type BooksKind } from "./books-query";

/*
 * The reports in their two groups (decision 0108): the cash reports (money and debts) and the books'
 * reports on the general ledger (decision 0101). Pure, so the browser tests read the same list.
 */

/** The cash reports' (report-frame.tsx, party-report-frame.tsx) and the books' (books-query.ts). */
export type AnyReportKind =
  | "income"
  | "cashflow"
  | "statement"
  | "aging"
  | "balances"
  | "counterparty"
  | BooksKind;

const PARTY_KINDS: AnyReportKind[] = ["aging", "balances", "counterparty"];

export const REPORT_GROUPS: { key: "cash" | "books"; kinds: AnyReportKind[] }[] = [
  { key: "cash", kinds: ["income", "cashflow", "statement", ...PARTY_KINDS] },
  // The books' reports on the general ledger (decision 0101).
  { key: "books", kinds: BOOKS_KINDS },
];

export const REPORT_KINDS: AnyReportKind[] = REPORT_GROUPS.flatMap((group) => group.kinds);

/** The i18n key of a report's name in the navigation. */
export const reportNavLabel = (kind: AnyReportKind) =>
  (PARTY_KINDS as string[]).includes(kind)
    ? `partyReports.nav.${kind}`
    : (BOOKS_KINDS as string[]).includes(kind)
      ? `booksReports.titles.${kind}`
      : `reports.titles.${kind}`;
