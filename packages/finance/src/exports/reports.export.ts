import {
  type AnyExportSheet,
  EXPORT_MAX_ROWS,
  type ExportColumn,
  type ExportSheet,
  keysetBatches,
  prepareXlsxWorkbook,
} from "@hisob/core";
import type { Db } from "@hisob/db";
import { type Clock, type Locale, parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import type { z } from "zod";
import { accountsRepository } from "../accounts/accounts.repository";
import { dateOf, toIsoDate } from "../dates";
import { type StatementRow, statementRows } from "../reports/account-statement.report";
import {
  type TAccountStatement,
  type TCashflowReport,
  type TIncomeStatement,
  ZAccountStatementExportQuery,
  ZCashflowQuery,
  ZIncomeStatementQuery,
} from "../reports/reports.schema";
import type { ReportsService } from "../reports/reports.service";
import {
  exportFileName,
  header,
  inMemory,
  loadCurrencyFormats,
  moneyCell,
  type PreparedExport,
  prepared,
  rowLabel,
  sheetName,
  typeLabel,
} from "./sheet-helpers";

/*
 * Reports as spreadsheets, laid out as an accountant reads them: a summary sheet, then one sheet per
 * section. A section lists its detail rows per currency, each currency's block closed by a total row
 * (bold, labelled, its amounts SUBTOTAL formulas over the block with the exact figure cached), so no
 * column mixes totals with the lines they total. Amounts in different currencies are never added.
 * The account statement streams its entries in keyset batches, each batch's running balance
 * continuing the previous one's in SQL.
 */

type Currencies = TIncomeStatement["currencies"];
type Formats = Awaited<ReturnType<typeof loadCurrencyFormats>>;

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

const incomeSheets = (locale: Locale, formats: Formats, currencies: Currencies): AnyExportSheet[] => {
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

const cashflowSheets = (
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

type StatementLine = {
  date: Date;
  type: string;
  comment: string;
  counterAccount: string | null;
  change: string | null;
  running: string;
};

export const createReportExports = (deps: { db: Db; clock: Clock; reports: ReportsService }) => {
  const { db, clock, reports } = deps;
  const today = () => toIsoDate(clock.now());

  return {
    // The two aggregate reports check permission and input here and run while the file streams,
    // so a download link (tRPC exports.*) costs no report and a download costs one.
    incomeStatement: async (
      ctx: TenantContext,
      raw: z.input<typeof ZIncomeStatementQuery>,
    ): Promise<PreparedExport> => {
      requirePermission(ctx, "reports:read:all");
      const query = parseInput(ZIncomeStatementQuery, raw);
      const formats = await loadCurrencyFormats(db);
      return prepareXlsxWorkbook({
        fileName: exportFileName(`income-statement-${query.startDate}-${query.endDate}`, today()),
        load: () => reports.incomeStatement(ctx, query),
        sheets: (report) => incomeSheets(ctx.locale, formats, report.currencies),
      });
    },

    cashflow: async (ctx: TenantContext, raw: z.input<typeof ZCashflowQuery>): Promise<PreparedExport> => {
      requirePermission(ctx, "reports:read:all");
      const query = parseInput(ZCashflowQuery, raw);
      const formats = await loadCurrencyFormats(db);
      return prepareXlsxWorkbook({
        fileName: exportFileName(`cashflow-${query.startDate}-${query.endDate}`, today()),
        load: async () => {
          const report = await reports.cashflow(ctx, query);
          // Movements may name an account outside `accountId`: every account's name and currency.
          const names = await db.withTenant(ctx.tenantId, (tx) =>
            accountsRepository.namesById(tx, ctx.tenantId),
          );
          return { report, names };
        },
        sheets: ({ report, names }) => cashflowSheets(ctx.locale, formats, report, names),
      });
    },

    /** Opening row, every entry with its running balance (streamed), closing row. */
    accountStatement: async (
      ctx: TenantContext,
      accountId: string,
      raw: z.input<typeof ZAccountStatementExportQuery>,
    ): Promise<PreparedExport> => {
      // Permission first, like every service (a caller without it hears 403 whatever it sent); the
      // JSON statement's first row then checks the account and gives the balances.
      requirePermission(ctx, "reports:read:all");
      const period = parseInput(ZAccountStatementExportQuery, raw);
      const head: TAccountStatement = await reports.accountStatement(ctx, accountId, { ...period, limit: 1 });
      const formats = await loadCurrencyFormats(db);
      const currency = head.account.currency;
      const names = new Map(
        [...(await db.withTenant(ctx.tenantId, (tx) => accountsRepository.namesById(tx, ctx.tenantId)))].map(
          ([id, account]) => [id, account.name],
        ),
      );
      const columns: ExportColumn<StatementLine>[] = [
        { header: header(ctx.locale, "date"), kind: "date", value: (row) => row.date },
        { header: header(ctx.locale, "type"), kind: "text", width: 18, value: (row) => row.type },
        { header: header(ctx.locale, "counterAccount"), kind: "text", value: (row) => row.counterAccount },
        { header: header(ctx.locale, "comment"), kind: "text", width: 40, value: (row) => row.comment },
        {
          header: header(ctx.locale, "change"),
          kind: "money",
          value: (row) => (row.change === null ? null : moneyCell(formats, row.change, currency)),
        },
        {
          header: header(ctx.locale, "runningBalance"),
          kind: "money",
          value: (row) => moneyCell(formats, row.running, currency),
        },
      ];
      const start = dateOf(head.startDate);
      const end = dateOf(head.endDate);
      const toLine = (row: StatementRow): StatementLine => ({
        date: row.date,
        type: typeLabel(ctx.locale, row.type),
        comment: row.comment,
        counterAccount: row.counter_account_id ? (names.get(row.counter_account_id) ?? null) : null,
        change: row.change,
        running: row.running,
      });
      async function* rows(): AsyncGenerator<StatementLine[]> {
        yield [
          {
            date: start,
            type: rowLabel(ctx.locale, "opening"),
            comment: "",
            counterAccount: null,
            change: null,
            running: head.openingBalance,
          },
        ];
        for await (const batch of keysetBatches<StatementRow>(
          (after, take) =>
            db.withTenant(ctx.tenantId, (tx) =>
              statementRows(tx, {
                tenantId: ctx.tenantId,
                accountId,
                start,
                end,
                from: {
                  balance: after ? after.running : head.openingBalance,
                  after: after ? { date: after.date, id: after.id } : null,
                },
                limit: take,
                offset: 0,
              }),
            ),
          EXPORT_MAX_ROWS,
        )) {
          yield batch.map(toLine);
        }
        yield [
          {
            date: end,
            type: rowLabel(ctx.locale, "closing"),
            comment: "",
            counterAccount: null,
            change: null,
            running: head.closingBalance,
          },
        ];
      }
      return prepared({
        fileName: exportFileName(`statement-${head.startDate}-${head.endDate}`, today()),
        sheet: sheetName(ctx.locale, "accountStatement"),
        columns,
        rows,
      });
    },
  };
};
