import type { Db } from "@hisob/db";
import type { Clock, TenantContext } from "@hisob/kernel";
import { EXPENSE, PAYMENT } from "../payments-expenses/payments-expenses.service";
import type { ReportsService } from "../reports/reports.service";
import { createListExports } from "./lists.export";
import { createRecordExports } from "./records.export";
import { createReportExports } from "./reports.export";

/** Every finance download: each checks permission and input first, then streams an .xlsx. */
export const createFinanceExports = (deps: { db: Db; clock: Clock; reports: ReportsService }) => {
  const lists = createListExports(deps);
  const reports = createReportExports(deps);
  const records = createRecordExports(deps);
  return {
    payments: (ctx: TenantContext, raw: unknown) => lists.documents(ctx, raw, PAYMENT),
    expenses: (ctx: TenantContext, raw: unknown) => lists.documents(ctx, raw, EXPENSE),
    accounts: lists.accounts,
    transactions: lists.transactions,
    incomeStatement: reports.incomeStatement,
    cashflow: reports.cashflow,
    accountStatement: reports.accountStatement,
    debts: records.debts,
    counterparties: records.counterparties,
    inventory: records.inventory,
  };
};

export type FinanceExports = ReturnType<typeof createFinanceExports>;
