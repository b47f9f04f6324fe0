import { EXPORT_MAX_ROWS, type ExportColumn, keysetBatches, prepareXlsxWorkbook } from "@hisob/core";
import type { Db } from "@hisob/db";
import { type Clock, parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { dateOf, FIRST_DATE, LAST_DATE, toIsoDate } from "@hisob/kernel/schema";
import type { z } from "zod";
import { accountsRepository } from "../accounts/accounts.repository";
import { type StatementExportRow, statementRows } from "../reports/account-statement.report";
import {
  CASHFLOW_FIGURES,
  type TAccountStatement,
  ZAccountStatementExportQuery,
  ZCashflowQuery,
  ZIncomeStatementQuery,
} from "../reports/reports.schema";
import type { ReportsService } from "../reports/reports.service";
import { comparisonSheet } from "./party-report-sheets";
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
  date: Date | null;
  type: string;
  comment: string;
  counterAccount: string | null;
  reversal: string | null;
  change: string | null;
  running: string;
};

/**
 * The days of an account's first and last statement entry, its opening balances included (as ISO
 * dates), or nulls when it has none. From the per-day checkpoints: two index probes.
 */
const entrySpan = async (db: Db, tenantId: string, accountId: string) => {
  const [span] = await db.withTenant(
    tenantId,
    (tx) =>
      tx.$queryRaw<{ first: string | null; last: string | null }[]>`
      SELECT min(date)::text AS first, max(date)::text AS last FROM account_day_totals
       WHERE tenant_id = ${tenantId}::uuid AND account_id = ${accountId}::uuid
         AND (entries > 0 OR opening <> 0)`,
  );
  return { first: span?.first ?? null, last: span?.last ?? null };
};

/**
 * The period a statement download covers: the dates asked for; a bound left out is the day of the
 * account's first (or last) entry, never a placeholder date such as 1900-01-01. An account without
 * entries, with no date asked for, has no dates at all: "all time" (see
 * docs/decisions/0006-statement-period-without-dates.md).
 */
export const statementPeriod = (
  asked: { startDate?: string | undefined; endDate?: string | undefined },
  span: { first: string | null; last: string | null },
): { startDate: string | null; endDate: string | null } => {
  const max = (a: string, b: string) => (a > b ? a : b);
  const min = (a: string, b: string) => (a < b ? a : b);
  const startDate =
    asked.startDate ?? (span.first && asked.endDate ? min(span.first, asked.endDate) : span.first) ?? null;
  const endDate =
    asked.endDate ?? (span.last && asked.startDate ? max(span.last, asked.startDate) : span.last) ?? null;
  // Only one bound asked for and no entries at all: a one-day period at that date.
  return { startDate: startDate ?? endDate, endDate: endDate ?? startDate };
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
        locale: ctx.locale,
        fileName: exportFileName(`income-statement-${query.startDate}-${query.endDate}`, today()),
        load: () => reports.incomeStatement(ctx, query),
        sheets: (report) => [
          ...incomeSheets(ctx.locale, formats, report.currencies),
          ...(report.comparedPeriods.length === 0
            ? []
            : [
                comparisonSheet(
                  ctx.locale,
                  formats,
                  report.comparedPeriods,
                  report.currencies.map((section) => ({
                    label: sheetName(ctx.locale, "incomeStatement"),
                    currency: section.currency,
                    figures: {
                      revenue: section.revenue,
                      expenses: section.expenses,
                      netIncome: section.netIncome,
                    },
                    compared: section.compared,
                  })),
                  (key) => rowLabel(ctx.locale, key as "revenue" | "expenses" | "netIncome"),
                ),
              ]),
        ],
      });
    },

    cashflow: async (ctx: TenantContext, raw: z.input<typeof ZCashflowQuery>): Promise<PreparedExport> => {
      requirePermission(ctx, "reports:read:all");
      const query = parseInput(ZCashflowQuery, raw);
      const formats = await loadCurrencyFormats(db);
      return prepareXlsxWorkbook({
        locale: ctx.locale,
        fileName: exportFileName(`cashflow-${query.startDate}-${query.endDate}`, today()),
        load: async () => {
          const report = await reports.cashflow(ctx, query);
          // Movements may name an account outside `accountId`: every account's name and currency.
          const names = await db.withTenant(ctx.tenantId, (tx) =>
            accountsRepository.namesById(tx, ctx.tenantId),
          );
          return { report, names };
        },
        sheets: ({ report, names }) => [
          ...cashflowSheets(ctx.locale, formats, report, names),
          ...(report.comparedPeriods.length === 0
            ? []
            : [
                comparisonSheet(
                  ctx.locale,
                  formats,
                  report.comparedPeriods,
                  [
                    ...report.accounts.map((account) => ({ label: account.name, ...account })),
                    ...report.totals.map((total) => ({ label: rowLabel(ctx.locale, "total"), ...total })),
                  ].map((section) => ({
                    label: section.label,
                    currency: section.currency,
                    figures: Object.fromEntries(CASHFLOW_FIGURES.map((key) => [key, section[key]])),
                    compared: section.compared,
                  })),
                  (key) => header(ctx.locale, key as (typeof CASHFLOW_FIGURES)[number]),
                ),
              ]),
        ],
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
      const asked = parseInput(ZAccountStatementExportQuery, raw);
      const period =
        asked.startDate && asked.endDate
          ? { startDate: asked.startDate, endDate: asked.endDate }
          : statementPeriod(asked, await entrySpan(db, ctx.tenantId, accountId));
      const head: TAccountStatement = await reports.accountStatement(ctx, accountId, {
        startDate: period.startDate ?? FIRST_DATE,
        endDate: period.endDate ?? LAST_DATE,
        limit: 1,
      });
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
        { header: header(ctx.locale, "reversal"), kind: "text", width: 40, value: (row) => row.reversal },
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
      /** "Reversed: <why>" on an entry a reversal undid, "Reversal: <why>" on the reversal. */
      const reversalOf = (row: StatementExportRow): string | null => {
        const marked = (tag: "reversed" | "reversal", reason: string | null) =>
          reason ? `${rowLabel(ctx.locale, tag)}: ${reason}` : rowLabel(ctx.locale, tag);
        if (row.reversal_of_id) return marked("reversal", row.reversal_reason);
        if (row.is_reversed) return marked("reversed", row.reversed_reason);
        return null;
      };
      const toLine = (row: StatementExportRow): StatementLine => ({
        date: row.date,
        type: typeLabel(ctx.locale, row.type),
        comment: row.comment,
        counterAccount: row.counter_account_id ? (names.get(row.counter_account_id) ?? null) : null,
        reversal: reversalOf(row),
        change: row.change,
        running: row.running,
      });
      const edgeRow = (
        date: string | null,
        label: "opening" | "closing",
        balance: string,
      ): StatementLine => ({
        // No period and no entries: the rows say "all time" instead of a date.
        date: date ? dateOf(date) : null,
        type: rowLabel(ctx.locale, label),
        comment: date ? "" : rowLabel(ctx.locale, "allTime"),
        counterAccount: null,
        reversal: null,
        change: null,
        running: balance,
      });
      async function* rows(): AsyncGenerator<StatementLine[]> {
        yield [edgeRow(period.startDate, "opening", head.openingBalance)];
        for await (const batch of keysetBatches<StatementExportRow>(
          (after, take) =>
            db.withTenant(
              ctx.tenantId,
              (tx) =>
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
              // The download stops with its reader: the batch running is cancelled.
              { signal: ctx.signal },
            ),
          EXPORT_MAX_ROWS,
        )) {
          yield batch.map(toLine);
        }
        yield [edgeRow(period.endDate, "closing", head.closingBalance)];
      }
      const dates = period.startDate && period.endDate ? `${period.startDate}-${period.endDate}` : "all-time";
      return prepared({
        fileName: exportFileName(`statement-${dates}`, today()),
        locale: ctx.locale,
        sheet: sheetName(ctx.locale, "accountStatement"),
        columns,
        rows,
      });
    },
  };
};
