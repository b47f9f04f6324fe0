import { prepareXlsxWorkbook } from "@hisob/core";
import type { Db } from "@hisob/db";
import { type Clock, parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { toIsoDate } from "@hisob/kernel/schema";
import { z } from "zod";
import {
  type TAgingQuery,
  type TBalancesQuery,
  type TCounterpartyStatementQuery,
  ZAgingQuery,
  ZBalancesQuery,
  ZCounterpartyStatementQuery,
} from "../reports/reports.schema";
import type { ReportsService } from "../reports/reports.service";
import { agingSheets, balancesSheets, counterpartySheets } from "./party-report-sheets";
import { exportFileName, loadCurrencyFormats, type PreparedExport } from "./sheet-helpers";

/*
 * The aging, balances-on-a-date and counterparty-statement downloads: permission and input checked
 * before the link or the file is answered; the report runs while the file streams (its first query
 * before the 200, so a missing counterparty is a 404, not a cut download).
 */
export const createPartyReportExports = (deps: { db: Db; clock: Clock; reports: ReportsService }) => {
  const { db, clock, reports } = deps;
  const today = () => toIsoDate(clock.now());
  return {
    aging: async (ctx: TenantContext, raw: TAgingQuery): Promise<PreparedExport> => {
      requirePermission(ctx, "reports:read:all");
      const query = parseInput(ZAgingQuery, raw);
      const formats = await loadCurrencyFormats(db);
      return prepareXlsxWorkbook({
        locale: ctx.locale,
        fileName: exportFileName(`aging-${query.asOf}`, today()),
        load: () => reports.aging(ctx, query),
        sheets: (report) => agingSheets(ctx.locale, formats, report),
      });
    },
    balances: async (ctx: TenantContext, raw: TBalancesQuery): Promise<PreparedExport> => {
      requirePermission(ctx, "reports:read:all");
      const query = parseInput(ZBalancesQuery, raw);
      const formats = await loadCurrencyFormats(db);
      return prepareXlsxWorkbook({
        locale: ctx.locale,
        fileName: exportFileName(`balances-${query.date}`, today()),
        load: () => reports.balances(ctx, query),
        sheets: (report) => balancesSheets(ctx.locale, formats, report),
      });
    },
    counterpartyStatement: async (
      ctx: TenantContext,
      counterpartyId: string,
      raw: TCounterpartyStatementQuery,
    ): Promise<PreparedExport> => {
      requirePermission(ctx, "reports:read:all");
      const id = parseInput(z.object({ counterpartyId: z.uuid() }), { counterpartyId }).counterpartyId;
      const query = parseInput(ZCounterpartyStatementQuery, raw);
      const formats = await loadCurrencyFormats(db);
      return prepareXlsxWorkbook({
        locale: ctx.locale,
        fileName: exportFileName(`counterparty-statement-${query.startDate}-${query.endDate}`, today()),
        load: () => reports.counterpartyStatement(ctx, id, query),
        sheets: (report) => counterpartySheets(ctx.locale, formats, report),
      });
    },
  };
};
