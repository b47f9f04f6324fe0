import type { AnyExportSheet, ExportColumn, ExportSheet } from "@hisob/core";
import type { Locale } from "@hisob/kernel";
import { dateOf } from "@hisob/kernel/schema";
import type {
  ComparePeriod,
  TAgingReport,
  TBalancesReport,
  TCounterpartyStatement,
} from "../reports/reports.schema";
import type { Formats } from "./report-sheets";
import { header, inMemory, labelOf, moneyCell, rowLabel, sheetName, typeLabel } from "./sheet-helpers";

/*
 * The aging, balances-on-a-date and counterparty-statement workbooks, and the comparison sheet the
 * income statement and cash flow add when compared: the JSON report's rows, per currency, each
 * currency's block closed by a total row whose amounts are SUBTOTAL formulas over the block (so the
 * file checks itself against the JSON's totals).
 */

const money = <Row extends { currency: string }>(
  formats: Formats,
  title: string,
  amount: (row: Row) => string | null,
  total: "sum" | "value" = "sum",
): ExportColumn<Row> => ({
  header: title,
  kind: "money",
  ...(total === "sum" ? { total: "sum" as const } : {}),
  value: (row) => {
    const value = amount(row);
    return value === null ? null : moneyCell(formats, value, row.currency);
  },
});

const text = <Row>(title: string, value: (row: Row) => string, width?: number): ExportColumn<Row> => ({
  header: title,
  kind: "text",
  ...(width ? { width } : {}),
  value,
});

type AgingLine = TAgingReport["totals"][number] & { label: string; isTotal: boolean };
const BUCKET_KEYS = ["notDue", "days1To30", "days31To60", "days61To90", "over90", "total"] as const;

export const agingSheets = (locale: Locale, formats: Formats, report: TAgingReport): AnyExportSheet[] => {
  const sheet: ExportSheet<AgingLine> = {
    name: sheetName(locale, "aging"),
    columns: [
      text(header(locale, "kind"), (row) => labelOf(locale, "debtKinds", row.kind), 14),
      text(header(locale, "counterparty"), (row) => row.label),
      text(header(locale, "currency"), (row) => row.currency, 10),
      { header: header(locale, "debtCount"), kind: "integer", width: 8, value: (row) => row.debts },
      ...BUCKET_KEYS.map((key) => money<AgingLine>(formats, header(locale, key), (row) => row[key])),
    ],
    isTotal: (row) => row.isTotal,
    rows: inMemory(
      report.totals.flatMap((total) => [
        ...report.rows
          .filter((row) => row.kind === total.kind && row.currency === total.currency)
          .map((row) => ({ ...row, label: row.counterpartyName, isTotal: false })),
        { ...total, label: rowLabel(locale, "total"), isTotal: true },
      ]),
    ),
  };
  return [sheet];
};

type BalanceLine = { name: string; number: string; currency: string; balance: string; isTotal: boolean };

export const balancesSheets = (
  locale: Locale,
  formats: Formats,
  report: TBalancesReport,
): AnyExportSheet[] => {
  const sheet: ExportSheet<BalanceLine> = {
    name: sheetName(locale, "balances"),
    columns: [
      text(header(locale, "account"), (row) => row.name),
      text(header(locale, "number"), (row) => row.number, 14),
      text(header(locale, "currency"), (row) => row.currency, 10),
      money<BalanceLine>(formats, `${header(locale, "balance")} (${report.date})`, (row) => row.balance),
    ],
    isTotal: (row) => row.isTotal,
    rows: inMemory(
      report.totals.flatMap((total) => [
        ...report.accounts
          .filter((account) => account.currency === total.currency)
          .map((account) => ({ ...account, isTotal: false })),
        {
          name: rowLabel(locale, "total"),
          number: "",
          currency: total.currency,
          balance: total.balance,
          isTotal: true,
        },
      ]),
    ),
  };
  return [sheet];
};

type PartyLine = {
  date: Date | null;
  label: string;
  description: string;
  currency: string;
  amount: string | null;
  receivable: string;
  payable: string;
  isTotal: boolean;
};

/**
 * The statement per currency: an opening row (what was owed each way before the period), every
 * entry, and a closing row whose amounts are the block's SUBTOTALs — opening plus the entries'
 * changes, which the JSON's closing balances equal.
 */
export const counterpartySheets = (
  locale: Locale,
  formats: Formats,
  report: TCounterpartyStatement,
): AnyExportSheet[] => {
  const sheet: ExportSheet<PartyLine> = {
    name: sheetName(locale, "counterpartyStatement"),
    columns: [
      { header: header(locale, "date"), kind: "date", value: (row) => row.date },
      text(header(locale, "type"), (row) => row.label, 18),
      text(header(locale, "description"), (row) => row.description, 40),
      text(header(locale, "currency"), (row) => row.currency, 10),
      money<PartyLine>(formats, header(locale, "amount"), (row) => row.amount),
      money<PartyLine>(formats, header(locale, "receivableChange"), (row) => row.receivable),
      money<PartyLine>(formats, header(locale, "payableChange"), (row) => row.payable),
    ],
    isTotal: (row) => row.isTotal,
    rows: inMemory(
      report.currencies.flatMap((section) => [
        {
          date: dateOf(report.startDate),
          label: rowLabel(locale, "opening"),
          description: report.counterparty.name,
          currency: section.currency,
          amount: null,
          receivable: section.openingReceivable,
          payable: section.openingPayable,
          isTotal: false,
        },
        ...report.entries
          .filter((entry) => entry.currency === section.currency)
          .map((entry) => ({
            date: dateOf(entry.date),
            label: typeLabel(locale, entry.type),
            description: entry.description,
            currency: entry.currency,
            amount: entry.amount,
            receivable: entry.receivableChange,
            payable: entry.payableChange,
            isTotal: false,
          })),
        {
          date: dateOf(report.endDate),
          label: rowLabel(locale, "closing"),
          description: report.counterparty.name,
          currency: section.currency,
          amount: null,
          receivable: section.closingReceivable,
          payable: section.closingPayable,
          isTotal: true,
        },
      ]),
    ),
  };
  return [sheet];
};

type Compared = { compare: ComparePeriod } & Record<
  string,
  { value: string; change: string; changePercent: string | null } | ComparePeriod
>;
type ComparisonLine = {
  label: string;
  currency: string;
  figure: string;
  period: string;
  current: string;
  compared: string;
  change: string;
  changePercent: string | null;
};

/**
 * Beside each figure of a section (a currency, an account), each compared period's value, the change
 * and the change in percent (empty when the compared value is zero), one row per figure and period.
 */
export const comparisonSheet = (
  locale: Locale,
  formats: Formats,
  comparedPeriods: Array<{ compare: ComparePeriod; startDate: string; endDate: string }>,
  sections: Array<{ label: string; currency: string; figures: Record<string, string>; compared: Compared[] }>,
  figureTitle: (key: string) => string,
): AnyExportSheet => {
  const periodLabel = (compare: ComparePeriod) => {
    const period = comparedPeriods.find((each) => each.compare === compare);
    return `${rowLabel(locale, compare)} (${period?.startDate} – ${period?.endDate})`;
  };
  const sheet: ExportSheet<ComparisonLine> = {
    name: sheetName(locale, "comparison"),
    columns: [
      text(header(locale, "section"), (row) => row.label),
      text(header(locale, "currency"), (row) => row.currency, 10),
      text(header(locale, "figure"), (row) => row.figure),
      text(header(locale, "comparedWith"), (row) => row.period, 36),
      money<ComparisonLine>(formats, header(locale, "current"), (row) => row.current, "value"),
      money<ComparisonLine>(formats, header(locale, "compared"), (row) => row.compared, "value"),
      money<ComparisonLine>(formats, header(locale, "change"), (row) => row.change, "value"),
      // Two decimals as the JSON gives them; empty when the compared value is zero.
      { header: header(locale, "changePercent"), kind: "text", width: 12, value: (row) => row.changePercent },
    ],
    rows: inMemory(
      sections.flatMap((section) =>
        Object.entries(section.figures).flatMap(([key, current]) =>
          section.compared.map((compared) => {
            const figure = compared[key] as { value: string; change: string; changePercent: string | null };
            return {
              label: section.label,
              currency: section.currency,
              figure: figureTitle(key),
              period: periodLabel(compared.compare),
              current,
              compared: figure.value,
              change: figure.change,
              changePercent: figure.changePercent,
            };
          }),
        ),
      ),
    ),
  };
  return sheet;
};
