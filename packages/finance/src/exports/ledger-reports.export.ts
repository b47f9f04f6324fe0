import {
  type AnyExportSheet,
  EXPORT_MAX_ROWS,
  type ExportColumn,
  type ExportSheet,
  prepareXlsxWorkbook,
} from "@hisob/core";
import type { Db } from "@hisob/db";
import { type Clock, type Locale, parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { dateOf, toIsoDate } from "@hisob/kernel/schema";
import { z } from "zod";
import { type TTrialBalanceQuery, ZTrialBalanceQuery } from "../general-ledger/general-ledger.schema";
import type { GeneralLedgerService } from "../general-ledger/general-ledger.service";
import {
  type TBalanceSheetQuery,
  type TGeneralLedger,
  type TGeneralLedgerQuery,
  type TProfitAndLossQuery,
  ZBalanceSheetQuery,
  ZGeneralLedgerQuery,
  ZProfitAndLossQuery,
} from "../general-ledger/ledger-reports.schema";
import { comparisonSheet } from "./party-report-sheets";
import type { Formats } from "./report-sheets";
import {
  exportFileName,
  header,
  loadCurrencyFormats,
  moneyCell,
  type PreparedExport,
  rowLabel,
  sheetName,
} from "./sheet-helpers";

/*
 * The books' reports as .xlsx (docs/decisions/0101-books-reports.md): the JSON report's rows in the
 * caller's language, account names in it, base-currency money cells; each block closed by a total
 * row whose amounts are SUBTOTAL formulas over the block, so the file checks itself against the
 * JSON's totals.
 */

type Named = { code: string; nameEn: string; nameRu: string; nameUz: string; depth?: number };

/** The account's name in the reader's language, indented by its depth in the tree. */
export const accountName = (locale: Locale, account: Named) =>
  `${"    ".repeat(account.depth ?? 0)}${locale === "ru" ? account.nameRu : locale === "uz" ? account.nameUz : account.nameEn}`;

const text = <Row>(title: string, value: (row: Row) => string, width?: number): ExportColumn<Row> => ({
  header: title,
  kind: "text",
  ...(width ? { width } : {}),
  value,
});

const money = <Row>(
  formats: Formats,
  currency: string,
  title: string,
  amount: (row: Row) => string | null,
  total = true,
): ExportColumn<Row> => ({
  header: title,
  kind: "money",
  ...(total ? { total: "sum" as const } : {}),
  value: (row) => {
    const value = amount(row);
    return value === null ? null : moneyCell(formats, value, currency);
  },
});

async function* once<Row>(rows: Row[]): AsyncGenerator<Row[]> {
  if (rows.length > 0) yield rows;
}

type FigureLine = Named & {
  label: string;
  opening: string;
  debit: string;
  credit: string;
  closing: string;
  isTotal: boolean;
};

/** The GL reports' downloads; each checks permission and input before the file starts. */
export const createLedgerReportExports = (deps: {
  db: Db;
  clock: Clock;
  generalLedger: GeneralLedgerService;
}) => {
  const { db, clock, generalLedger } = deps;
  const today = () => toIsoDate(clock.now());
  /** A report's workbook in the caller's language: the report loads when the file opens (before the 200). */
  const workbook = async <Data>(
    ctx: TenantContext,
    name: string,
    load: () => Promise<Data>,
    sheets: (data: Data, formats: Formats, locale: Locale) => AnyExportSheet[],
  ): Promise<PreparedExport> => {
    const formats = await loadCurrencyFormats(db);
    return prepareXlsxWorkbook({
      locale: ctx.locale,
      fileName: exportFileName(name, today()),
      load,
      sheets: (data) => sheets(data, formats, ctx.locale),
    });
  };

  return {
    trialBalance: async (ctx: TenantContext, raw: TTrialBalanceQuery): Promise<PreparedExport> => {
      requirePermission(ctx, "reports:read:all");
      const query = parseInput(ZTrialBalanceQuery, raw);
      return workbook(
        ctx,
        `trial-balance-${query.startDate}-${query.endDate}`,
        () => generalLedger.trialBalance(ctx, query),
        (report, formats, locale) => {
          const currency = report.baseCurrency ?? "";
          const columns = (sum: boolean): ExportColumn<FigureLine>[] => [
            text(header(locale, "code"), (row) => row.code, 10),
            text(header(locale, "account"), (row) => row.label, 44),
            money(formats, currency, header(locale, "openingBalance"), (row) => row.opening, sum),
            money(formats, currency, header(locale, "debit"), (row) => row.debit, sum),
            money(formats, currency, header(locale, "credit"), (row) => row.credit, sum),
            money(formats, currency, header(locale, "closingBalance"), (row) => row.closing, sum),
          ];
          const leaves: ExportSheet<FigureLine> = {
            name: sheetName(locale, "trialBalance"),
            columns: columns(true),
            isTotal: (row) => row.isTotal,
            rows: once([
              ...report.rows.map((row) => ({ ...row, label: accountName(locale, row), isTotal: false })),
              {
                code: "",
                nameEn: "",
                nameRu: "",
                nameUz: "",
                label: rowLabel(locale, "total"),
                ...report.totals,
                isTotal: true,
              },
            ]),
          };
          const tree: ExportSheet<FigureLine> = {
            name: sheetName(locale, "trialBalanceTree"),
            columns: columns(false),
            rows: once(
              report.tree.map((row) => ({ ...row, label: accountName(locale, row), isTotal: false })),
            ),
          };
          return [leaves, tree];
        },
      );
    },

    generalLedger: async (
      ctx: TenantContext,
      accountId: string,
      raw: TGeneralLedgerQuery,
    ): Promise<PreparedExport> => {
      requirePermission(ctx, "reports:read:all");
      const id = parseInput(z.object({ accountId: z.uuid() }), { accountId }).accountId;
      const query = parseInput(ZGeneralLedgerQuery, raw);
      const page = 1000;
      type Line = {
        date: Date | null;
        code: string;
        label: string;
        description: string;
        debit: string | null;
        credit: string | null;
        balance: string;
        isTotal: boolean;
      };
      // The first page at open: an unknown account is a 404, not a cut download.
      return workbook(
        ctx,
        `general-ledger-${query.startDate}-${query.endDate}`,
        () => generalLedger.generalLedger(ctx, id, { ...query, limit: page, offset: 0 }),
        (first: TGeneralLedger, formats, locale) => {
          const currency = first.baseCurrency ?? "";
          const toLine = (line: TGeneralLedger["lines"][number]): Line => ({
            date: dateOf(line.date),
            code: line.code,
            label: line.counterpartyName ?? "",
            description: line.description,
            debit: line.debit,
            credit: line.credit,
            balance: line.balance,
            isTotal: false,
          });
          async function* rows(): AsyncGenerator<Line[]> {
            yield [
              {
                date: dateOf(first.startDate),
                code: first.account.code,
                label: rowLabel(locale, "opening"),
                description: accountName(locale, { ...first.account, depth: 0 }),
                debit: null,
                credit: null,
                balance: first.opening,
                isTotal: false,
              },
            ];
            let report = first;
            let written = 0;
            while (report.lines.length > 0 && written < EXPORT_MAX_ROWS) {
              yield report.lines.map(toLine);
              written += report.lines.length;
              if (report.offset + report.lines.length >= report.total) break;
              report = await generalLedger.generalLedger(ctx, id, {
                ...query,
                limit: page,
                offset: report.offset + report.lines.length,
              });
            }
            yield [
              {
                date: dateOf(first.endDate),
                code: first.account.code,
                label: rowLabel(locale, "closing"),
                description: accountName(locale, { ...first.account, depth: 0 }),
                debit: first.debit,
                credit: first.credit,
                balance: first.closing,
                isTotal: true,
              },
            ];
          }
          const sheet: ExportSheet<Line> = {
            name: sheetName(locale, "generalLedger"),
            columns: [
              { header: header(locale, "date"), kind: "date", value: (row) => row.date },
              text(header(locale, "code"), (row) => row.code, 10),
              text(header(locale, "counterparty"), (row) => row.label, 24),
              text(header(locale, "description"), (row) => row.description, 40),
              money(formats, currency, header(locale, "debit"), (row) => row.debit),
              money(formats, currency, header(locale, "credit"), (row) => row.credit),
              money(formats, currency, header(locale, "runningBalance"), (row) => row.balance, false),
            ],
            isTotal: (row) => row.isTotal,
            rows: rows(),
          };
          return [sheet];
        },
      );
    },

    balanceSheet: async (ctx: TenantContext, raw: TBalanceSheetQuery): Promise<PreparedExport> => {
      requirePermission(ctx, "reports:read:all");
      const query = parseInput(ZBalanceSheetQuery, raw);
      type Line = { code: string; label: string; amount: string; compared: string | null; isTotal: boolean };
      return workbook(
        ctx,
        `balance-sheet-${query.date}`,
        () => generalLedger.balanceSheet(ctx, query),
        (report, formats, locale) => {
          const currency = report.baseCurrency ?? "";
          // Leaves only above each total (groups would be counted twice by the SUBTOTAL).
          const block = (
            key: "assets" | "liabilities" | "equity",
            extra: Line[],
            total: { amount: string; compared: string | null },
          ): Line[] => [
            ...report[key].lines
              .filter((line) => !line.isGroup)
              .map((line) => ({
                code: line.code,
                label: accountName(locale, { ...line, depth: 0 }),
                amount: line.amount,
                compared: line.compared,
                isTotal: false,
              })),
            ...extra,
            { code: "", label: rowLabel(locale, key), ...total, isTotal: true },
          ];
          const side = (key: "assets" | "liabilities" | "equity") => ({
            amount: report[key].total,
            compared: report[key].comparedTotal,
          });
          const sheet: ExportSheet<Line> = {
            name: sheetName(locale, "balanceSheet"),
            columns: [
              text(header(locale, "code"), (row) => row.code, 10),
              text(header(locale, "account"), (row) => row.label, 44),
              money(formats, currency, `${header(locale, "balance")} (${report.date})`, (row) => row.amount),
              ...(report.compareDate
                ? [
                    money<Line>(
                      formats,
                      currency,
                      `${header(locale, "balance")} (${report.compareDate})`,
                      (row) => row.compared,
                    ),
                  ]
                : []),
            ],
            isTotal: (row) => row.isTotal,
            rows: once([
              ...block("assets", [], side("assets")),
              ...block("liabilities", [], side("liabilities")),
              ...block(
                "equity",
                [
                  {
                    code: "",
                    label: rowLabel(locale, "retainedEarnings"),
                    amount: report.retainedEarnings.amount,
                    compared: report.retainedEarnings.compared,
                    isTotal: false,
                  },
                ],
                side("equity"),
              ),
              {
                code: "",
                label: rowLabel(locale, "liabilitiesAndEquity"),
                amount: report.liabilitiesAndEquity.amount,
                compared: report.liabilitiesAndEquity.compared,
                isTotal: false,
              },
              {
                code: "",
                label: rowLabel(locale, "difference"),
                amount: report.difference,
                compared: report.comparedDifference,
                isTotal: false,
              },
            ]),
          };
          return [sheet];
        },
      );
    },

    profitAndLoss: async (ctx: TenantContext, raw: TProfitAndLossQuery): Promise<PreparedExport> => {
      requirePermission(ctx, "reports:read:all");
      const query = parseInput(ZProfitAndLossQuery, raw);
      type Line = { code: string; label: string; amount: string; compared: string[]; isTotal: boolean };
      return workbook(
        ctx,
        `profit-and-loss-${query.startDate}-${query.endDate}`,
        () => generalLedger.profitAndLoss(ctx, query),
        (report, formats, locale) => {
          const currency = report.baseCurrency ?? "";
          const block = (
            lines: typeof report.incomeLines,
            label: string,
            amount: string,
            compared: string[],
          ) => [
            ...lines
              .filter((line) => !line.isGroup)
              .map((line) => ({
                code: line.code,
                label: accountName(locale, { ...line, depth: 0 }),
                amount: line.amount,
                compared: line.compared,
                isTotal: false,
              })),
            { code: "", label, amount, compared, isTotal: true },
          ];
          const sheet: ExportSheet<Line> = {
            name: sheetName(locale, "profitAndLoss"),
            columns: [
              text(header(locale, "code"), (row) => row.code, 10),
              text(header(locale, "account"), (row) => row.label, 44),
              money(
                formats,
                currency,
                `${header(locale, "amount")} (${report.startDate} – ${report.endDate})`,
                (row) => row.amount,
              ),
              ...report.comparedPeriods.map((period, index) =>
                money<Line>(
                  formats,
                  currency,
                  `${rowLabel(locale, period.compare)} (${period.startDate} – ${period.endDate})`,
                  (row) => row.compared[index] ?? "0",
                ),
              ),
            ],
            isTotal: (row) => row.isTotal,
            rows: once<Line>([
              ...block(
                report.incomeLines,
                rowLabel(locale, "incomeTotal"),
                report.income,
                report.compared.map((each) => each.income.value),
              ),
              ...block(
                report.expenseLines,
                rowLabel(locale, "expenses"),
                report.expenses,
                report.compared.map((each) => each.expenses.value),
              ),
              {
                code: "",
                label: rowLabel(locale, "netResult"),
                amount: report.netResult,
                compared: report.compared.map((each) => each.netResult.value),
                isTotal: false,
              },
            ]),
          };
          const sheets: AnyExportSheet[] = [sheet];
          if (report.comparedPeriods.length > 0) {
            sheets.push(
              comparisonSheet(
                locale,
                formats,
                report.comparedPeriods,
                [
                  {
                    label: sheetName(locale, "profitAndLoss"),
                    currency,
                    figures: {
                      income: report.income,
                      expenses: report.expenses,
                      netResult: report.netResult,
                    },
                    compared: report.compared,
                  },
                ],
                (key) =>
                  rowLabel(locale, key === "income" ? "incomeTotal" : (key as "expenses" | "netResult")),
              ),
            );
          }
          return sheets;
        },
      );
    },
  };
};
