import { EXPORT_MAX_ROWS, type ExportColumn, keysetBatches, prepareXlsxWorkbook } from "@hisob/core";
import type { Db } from "@hisob/db";
import { type Clock, parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import type { z } from "zod";
import { accountsRepository } from "../accounts/accounts.repository";
import { dateOf, toIsoDate } from "../dates";
import { type StatementRow, statementRows } from "../reports/account-statement.report";
import {
  type TAccountStatement,
  ZAccountStatementExportQuery,
  ZCashflowQuery,
  ZIncomeStatementQuery,
} from "../reports/reports.schema";
import type { ReportsService } from "../reports/reports.service";
import { cashflowSheets, incomeSheets } from "./report-sheets";
import {
  exportFileName,
  header,
  loadCurrencyFormats,
  moneyCell,
  type PreparedExport,
  prepared,
  rowLabel,
  sheetName,
  typeLabel,
} from "./sheet-helpers";

/*
 * The report downloads: the income statement and cash flow workbooks (laid out in report-sheets.ts)
 * and the account statement, whose entries stream in keyset batches, each batch's running balance
 * continuing the previous one's in SQL.
 */

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
