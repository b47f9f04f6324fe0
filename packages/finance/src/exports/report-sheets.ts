import type { AnyExportSheet, ExportColumn, ExportSheet } from "@hisob/core";
import type { Locale } from "@hisob/kernel";
import type { TCashflowReport, TIncomeStatement } from "../reports/reports.schema";
import {
  header,
  inMemory,
  type loadCurrencyFormats,
  moneyCell,
  rowLabel,
  sheetName,
  typeLabel,
} from "./sheet-helpers";

/*
 * Reports as spreadsheets, laid out as an accountant reads them: a summary sheet, then one sheet per
 * section. A section lists its detail rows per currency, each currency's block closed by a total row
 * (bold, labelled, its amounts SUBTOTAL formulas over the block with the exact figure cached), so no
 * column mixes totals with the lines they total. Amounts in different currencies are never added.
 * These are the income statement's and the cash flow's sheets; reports.export.ts serves them.
 */

type Currencies = TIncomeStatement["currencies"];
export type Formats = Awaited<ReturnType<typeof loadCurrencyFormats>>;

/** A detail or total row of a section sheet: `label` is the category, month, period or account. */
type Line<Amounts extends string> = {
  currency: string;
  label: string;
  isTotal: boolean;
  amounts: Record<Amounts, string | null>;
};

const moneyColumn = <Amounts extends string>(
  formats: Formats,
  title: string,
  key: Amounts,
  total: "sum" | "value" = "sum",
): ExportColumn<Line<Amounts>> => ({
  header: title,
  kind: "money",
  ...(total === "sum" ? { total: "sum" as const } : {}),
  value: (row) => {
    const amount = row.amounts[key];
    return amount === null ? null : moneyCell(formats, amount, row.currency);
  },
});

export const incomeSheets = (locale: Locale, formats: Formats, currencies: Currencies): AnyExportSheet[] => {
  const total = rowLabel(locale, "total");
  const currencyColumn = {
    header: header(locale, "currency"),
    kind: "text",
    width: 10,
    value: (row: { currency: string }) => row.currency,
  } as const;
  const labelColumn = (title: string) =>
    ({ header: title, kind: "text", value: (row: { label: string }) => row.label }) as const;

  const summary: ExportSheet<Line<"revenue" | "expenses" | "netIncome">> = {
    name: sheetName(locale, "incomeStatement"),
    columns: [
      currencyColumn,
      moneyColumn(formats, rowLabel(locale, "revenue"), "revenue"),
      moneyColumn(formats, rowLabel(locale, "expenses"), "expenses"),
      moneyColumn(formats, rowLabel(locale, "netIncome"), "netIncome"),
    ],
    rows: inMemory(
      currencies.map((section) => ({
        currency: section.currency,
        label: "",
        isTotal: false,
        amounts: { revenue: section.revenue, expenses: section.expenses, netIncome: section.netIncome },
      })),
    ),
  };

  const byCategory = (name: "revenue" | "expenses"): ExportSheet<Line<"amount">> => ({
    name: rowLabel(locale, name),
    columns: [
      currencyColumn,
      labelColumn(header(locale, "category")),
      moneyColumn(formats, header(locale, "amount"), "amount"),
    ],
    isTotal: (row) => row.isTotal,
    rows: inMemory(
      currencies.flatMap((section) => [
        ...(name === "revenue" ? section.revenueByCategory : section.expensesByCategory).map((row) => ({
          currency: section.currency,
          label: row.categoryName ?? rowLabel(locale, "uncategorized"),
          isTotal: false,
          amounts: { amount: row.amount },
        })),
        { currency: section.currency, label: total, isTotal: true, amounts: { amount: section[name] } },
      ]),
    ),
  });

  const byMonth: ExportSheet<Line<"revenue" | "expenses" | "netIncome">> = {
    name: sheetName(locale, "incomeByMonth"),
    columns: [
      currencyColumn,
      labelColumn(header(locale, "month")),
      moneyColumn(formats, rowLabel(locale, "revenue"), "revenue"),
      moneyColumn(formats, rowLabel(locale, "expenses"), "expenses"),
      moneyColumn(formats, rowLabel(locale, "netIncome"), "netIncome"),
    ],
    isTotal: (row) => row.isTotal,
    rows: inMemory(
      currencies.flatMap((section) => [
        ...section.byMonth.map((month) => ({
          currency: section.currency,
          label: month.month,
          isTotal: false,
          amounts: { revenue: month.revenue, expenses: month.expenses, netIncome: month.netIncome },
        })),
        {
          currency: section.currency,
          label: total,
          isTotal: true,
          amounts: { revenue: section.revenue, expenses: section.expenses, netIncome: section.netIncome },
        },
      ]),
    ),
  };
  return [summary, byCategory("revenue"), byCategory("expenses"), byMonth];
};

const FLOW_KEYS = [
  "inflows",
  "outflows",
  "income",
  "expense",
  "transfersIn",
  "transfersOut",
  "exchangesIn",
  "exchangesOut",
] as const;
type FlowKey = (typeof FLOW_KEYS)[number];
type CashflowAmounts = FlowKey | "opening" | "closing";
type CashflowLine = Line<CashflowAmounts> & { account: string };

const flowAmounts = (row: Record<FlowKey, string>) =>
  Object.fromEntries(FLOW_KEYS.map((key) => [key, row[key]])) as Record<FlowKey, string>;

type CashflowPeriod = TCashflowReport["accounts"][number]["periods"][number];
const periodBalances = (period: CashflowPeriod) => ({
  opening: period.openingBalance,
  closing: period.closingBalance,
});

export const cashflowSheets = (
  locale: Locale,
  formats: Formats,
  report: TCashflowReport,
  names: Map<string, { name: string; currency: string }>,
): AnyExportSheet[] => {
  const total = rowLabel(locale, "total");
  const flowColumns = (balances: "sum" | "value") => [
    moneyColumn<CashflowAmounts>(formats, header(locale, "openingBalance"), "opening", balances),
    ...FLOW_KEYS.map((key) => moneyColumn<CashflowAmounts>(formats, header(locale, key), key)),
    moneyColumn<CashflowAmounts>(formats, header(locale, "closingBalance"), "closing", balances),
  ];
  const accountColumn = {
    header: header(locale, "account"),
    kind: "text",
    value: (row: CashflowLine) => row.account,
  } as const;
  const currencyColumn = {
    header: header(locale, "currency"),
    kind: "text",
    width: 10,
    value: (row: CashflowLine) => row.currency,
  } as const;

  // Accounts of one currency together, each currency closed by its total (the JSON's `totals`).
  const byCurrency = [...report.accounts].sort(
    (a, b) => a.currency.localeCompare(b.currency) || a.name.localeCompare(b.name),
  );
  const accounts: ExportSheet<CashflowLine> = {
    name: sheetName(locale, "cashflow"),
    columns: [accountColumn, currencyColumn, ...flowColumns("sum")],
    isTotal: (row) => row.isTotal,
    rows: inMemory(
      report.totals.flatMap((sum) => [
        ...byCurrency
          .filter((account) => account.currency === sum.currency)
          .map((account) => ({
            account: account.name,
            currency: account.currency,
            label: "",
            isTotal: false,
            amounts: {
              opening: account.openingBalance,
              closing: account.closingBalance,
              ...flowAmounts(account),
            },
          })),
        {
          account: total,
          currency: sum.currency,
          label: "",
          isTotal: true,
          amounts: { opening: sum.openingBalance, closing: sum.closingBalance, ...flowAmounts(sum) },
        },
      ]),
    ),
  };

  // Each account's periods, closed by the account's total for the whole report.
  const periods: ExportSheet<CashflowLine> = {
    name: sheetName(locale, "cashflowPeriods"),
    columns: [
      accountColumn,
      currencyColumn,
      { header: header(locale, "period"), kind: "text", width: 12, value: (row) => row.label },
      ...flowColumns("value"),
    ],
    isTotal: (row) => row.isTotal,
    rows: inMemory(
      byCurrency.flatMap((account) => [
        ...account.periods.map((period) => ({
          account: account.name,
          currency: account.currency,
          label: period.period,
          isTotal: false,
          amounts: { ...periodBalances(period), ...flowAmounts(period) },
        })),
        {
          account: account.name,
          currency: account.currency,
          label: total,
          isTotal: true,
          amounts: {
            opening: account.openingBalance,
            closing: account.closingBalance,
            ...flowAmounts(account),
          },
        },
      ]),
    ),
  };

  type MovementLine = TCashflowReport["movements"][number];
  const nameOf = (id: string) => names.get(id)?.name ?? id;
  const currencyOf = (id: string) => names.get(id)?.currency ?? "";
  const movements: ExportSheet<MovementLine> = {
    name: sheetName(locale, "movements"),
    columns: [
      {
        header: header(locale, "type"),
        kind: "text",
        width: 14,
        value: (row) => typeLabel(locale, row.type),
      },
      { header: header(locale, "fromAccount"), kind: "text", value: (row) => nameOf(row.fromAccountId) },
      {
        header: header(locale, "currency"),
        kind: "text",
        width: 10,
        value: (row) => currencyOf(row.fromAccountId),
      },
      {
        header: header(locale, "amount"),
        kind: "money",
        value: (row) => moneyCell(formats, row.amount, currencyOf(row.fromAccountId)),
      },
      { header: header(locale, "toAccount"), kind: "text", value: (row) => nameOf(row.toAccountId) },
      {
        header: header(locale, "destinationCurrency"),
        kind: "text",
        width: 10,
        value: (row) => currencyOf(row.toAccountId),
      },
      {
        header: header(locale, "destinationAmount"),
        kind: "money",
        value: (row) => moneyCell(formats, row.destinationAmount, currencyOf(row.toAccountId)),
      },
      { header: header(locale, "count"), kind: "integer", width: 8, value: (row) => row.count },
    ],
    rows: inMemory(report.movements),
  };
  return [accounts, periods, movements];
};
