import type { Db } from "@hisob/db";
import { accountStatementReport } from "./account-statement.report";
import { agingDebtsReport, agingReport } from "./aging.report";
import { balancesReport } from "./balances.report";
import { cashflowReport } from "./cashflow.report";
import { counterpartyStatementReport } from "./counterparty-statement.report";
import { incomeStatementReport } from "./income-statement.report";

/**
 * The finance reports, one file each: SQL aggregates over indexed date ranges of the ledger (see
 * report-sql.ts), each in one read-only snapshot transaction.
 */
export const createReportsService = (deps: { db: Db }) => ({
  incomeStatement: incomeStatementReport(deps),
  cashflow: cashflowReport(deps),
  accountStatement: accountStatementReport(deps),
  aging: agingReport(deps),
  agingDebts: agingDebtsReport(deps),
  balances: balancesReport(deps),
  counterpartyStatement: counterpartyStatementReport(deps),
});

export type ReportsService = ReturnType<typeof createReportsService>;
