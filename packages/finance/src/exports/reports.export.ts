import { EXPORT_MAX_ROWS, type ExportColumn, keysetBatches } from "@hisob/core";
import type { Db } from "@hisob/db";
import { type Clock, type Locale, parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { dateOf, toIsoDate } from "../dates";
import {
  type TAccountStatement,
  type TCashflowReport,
  type TIncomeStatement,
  ZAccountStatementExportQuery,
  ZCashflowQuery,
  ZIncomeStatementQuery,
} from "../reports/reports.schema";
import { type ReportsService, type StatementRow, statementRows } from "../reports/reports.service";
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
 * Reports as spreadsheets: the JSON report (computed by its SQL aggregates) laid out as one flat,
 * filterable table. The account statement streams its entries in keyset batches, each batch's
 * running balance continuing the previous one's in SQL.
 */

type IncomeLine = {
  currency: string;
  section: string;
  category: string | null;
  month: string | null;
  amount: string;
};

const incomeLines = (locale: Locale, report: TIncomeStatement): IncomeLine[] =>
  report.currencies.flatMap((section) => {
    const line = (
      name: "revenue" | "expenses" | "netIncome",
      amount: string,
      extra: Partial<IncomeLine> = {},
    ) => ({
      currency: section.currency,
      section: rowLabel(locale, name),
      category: null,
      month: null,
      amount,
      ...extra,
    });
    const byCategory = (
      name: "revenue" | "expenses",
      rows: TIncomeStatement["currencies"][number]["revenueByCategory"],
    ) =>
      rows.map((row) =>
        line(name, row.amount, { category: row.categoryName ?? rowLabel(locale, "uncategorized") }),
      );
    return [
      line("revenue", section.revenue),
      ...byCategory("revenue", section.revenueByCategory),
      line("expenses", section.expenses),
      ...byCategory("expenses", section.expensesByCategory),
      line("netIncome", section.netIncome),
      ...section.byMonth.flatMap((month) => [
        line("revenue", month.revenue, { month: month.month }),
        line("expenses", month.expenses, { month: month.month }),
        line("netIncome", month.netIncome, { month: month.month }),
      ]),
    ];
  });

type CashflowLine = {
  account: string;
  currency: string;
  period: string;
  opening: string | null;
  closing: string | null;
} & Pick<
  TCashflowReport["accounts"][number],
  | "inflows"
  | "outflows"
  | "income"
  | "expense"
  | "transfersIn"
  | "transfersOut"
  | "exchangesIn"
  | "exchangesOut"
>;

const cashflowLines = (locale: Locale, report: TCashflowReport): CashflowLine[] =>
  report.accounts.flatMap(
    ({ periods, openingBalance, closingBalance, accountId: _id, name, currency, ...flows }) => [
      ...periods.map(({ period, ...periodFlows }) => ({
        account: name,
        currency,
        period,
        opening: null,
        closing: null,
        ...periodFlows,
      })),
      {
        account: name,
        currency,
        period: rowLabel(locale, "total"),
        opening: openingBalance,
        closing: closingBalance,
        ...flows,
      },
    ],
  );

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
    incomeStatement: async (ctx: TenantContext, raw: unknown): Promise<PreparedExport> => {
      requirePermission(ctx, "reports:read:all");
      const query = parseInput(ZIncomeStatementQuery, raw);
      const formats = await loadCurrencyFormats(db);
      const columns: ExportColumn<IncomeLine>[] = [
        { header: header(ctx.locale, "currency"), kind: "text", width: 10, value: (row) => row.currency },
        { header: header(ctx.locale, "section"), kind: "text", width: 20, value: (row) => row.section },
        { header: header(ctx.locale, "category"), kind: "text", value: (row) => row.category },
        { header: header(ctx.locale, "month"), kind: "text", width: 10, value: (row) => row.month },
        {
          header: header(ctx.locale, "amount"),
          kind: "money",
          value: (row) => moneyCell(formats, row.amount, row.currency),
        },
      ];
      return prepared({
        fileName: exportFileName(`income-statement-${query.startDate}-${query.endDate}`, today()),
        sheet: sheetName(ctx.locale, "incomeStatement"),
        columns,
        rows: async function* () {
          yield* inMemory(incomeLines(ctx.locale, await reports.incomeStatement(ctx, query)));
        },
      });
    },

    cashflow: async (ctx: TenantContext, raw: unknown): Promise<PreparedExport> => {
      requirePermission(ctx, "reports:read:all");
      const query = parseInput(ZCashflowQuery, raw);
      const formats = await loadCurrencyFormats(db);
      const amount = (
        key:
          | "inflows"
          | "outflows"
          | "income"
          | "expense"
          | "transfersIn"
          | "transfersOut"
          | "exchangesIn"
          | "exchangesOut",
      ) =>
        ({
          header: header(ctx.locale, key),
          kind: "money",
          value: (row: CashflowLine) => moneyCell(formats, row[key], row.currency),
        }) satisfies ExportColumn<CashflowLine>;
      const columns: ExportColumn<CashflowLine>[] = [
        { header: header(ctx.locale, "account"), kind: "text", value: (row) => row.account },
        { header: header(ctx.locale, "currency"), kind: "text", width: 10, value: (row) => row.currency },
        { header: header(ctx.locale, "period"), kind: "text", width: 12, value: (row) => row.period },
        {
          header: header(ctx.locale, "openingBalance"),
          kind: "money",
          value: (row) => (row.opening === null ? null : moneyCell(formats, row.opening, row.currency)),
        },
        amount("inflows"),
        amount("outflows"),
        amount("income"),
        amount("expense"),
        amount("transfersIn"),
        amount("transfersOut"),
        amount("exchangesIn"),
        amount("exchangesOut"),
        {
          header: header(ctx.locale, "closingBalance"),
          kind: "money",
          value: (row) => (row.closing === null ? null : moneyCell(formats, row.closing, row.currency)),
        },
      ];
      return prepared({
        fileName: exportFileName(`cashflow-${query.startDate}-${query.endDate}`, today()),
        sheet: sheetName(ctx.locale, "cashflow"),
        columns,
        rows: async function* () {
          yield* inMemory(cashflowLines(ctx.locale, await reports.cashflow(ctx, query)));
        },
      });
    },

    /** Opening row, every entry with its running balance (streamed), closing row. */
    accountStatement: async (
      ctx: TenantContext,
      accountId: string,
      raw: unknown,
    ): Promise<PreparedExport> => {
      // Permission first, like every service (a caller without it hears 403 whatever it sent); the
      // JSON statement's first row then checks the account and gives the balances.
      requirePermission(ctx, "reports:read:all");
      const period = parseInput(ZAccountStatementExportQuery, raw);
      const head: TAccountStatement = await reports.accountStatement(ctx, accountId, { ...period, limit: 1 });
      const formats = await loadCurrencyFormats(db);
      const currency = head.account.currency;
      const names = new Map(
        (
          await db.withTenant(ctx.tenantId, (tx) =>
            tx.moneyAccount.findMany({ where: { tenantId: ctx.tenantId }, select: { id: true, name: true } }),
          )
        ).map((row) => [row.id, row.name]),
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
