import type { Db } from "@hisob/db";
import type { Clock, TenantContext } from "@hisob/kernel";
import { EXPENSE, PAYMENT } from "../documents/documents.service";
import type { ReportsService } from "../reports/reports.service";
import { createListExports } from "./lists.export";
import { createReportExports } from "./reports.export";

/** Every finance download: each checks permission and input first, then streams an .xlsx. */
export const createFinanceExports = (deps: { db: Db; clock: Clock; reports: ReportsService }) => {
  const lists = createListExports(deps);
  const reports = createReportExports(deps);
  return {
    payments: (ctx: TenantContext, raw: unknown) => lists.documents(ctx, raw, PAYMENT),
    expenses: (ctx: TenantContext, raw: unknown) => lists.documents(ctx, raw, EXPENSE),
    accounts: lists.accounts,
    transactions: lists.transactions,
    incomeStatement: reports.incomeStatement,
    cashflow: reports.cashflow,
    accountStatement: reports.accountStatement,
  };
};

export type FinanceExports = ReturnType<typeof createFinanceExports>;
