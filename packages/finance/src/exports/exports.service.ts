import type { Db } from "@hisob/db";
import type { Clock, TenantContext } from "@hisob/kernel";
import type { z } from "zod";
import type { GeneralLedgerService } from "../general-ledger/general-ledger.service";
import { EXPENSE, PAYMENT } from "../payments-expenses/payments-expenses.service";
import type { ReportsService } from "../reports/reports.service";
import type { ZExportDocumentsQuery } from "./export-queries.schema";
import { createLedgerReportExports } from "./ledger-reports.export";
import { createListExports } from "./lists.export";
import { createPartyReportExports } from "./party-reports.export";
import { createRecordExports } from "./records.export";
import { createReportExports } from "./reports.export";

type DocumentsQuery = z.input<typeof ZExportDocumentsQuery>;

/** Every finance download: each checks permission and input first, then streams an .xlsx. */
export const createFinanceExports = (deps: {
  db: Db;
  clock: Clock;
  reports: ReportsService;
  generalLedger: GeneralLedgerService;
}) => {
  const lists = createListExports(deps);
  const reports = createReportExports(deps);
  const records = createRecordExports(deps);
  const partyReports = createPartyReportExports(deps);
  const ledgerReports = createLedgerReportExports(deps);
  return {
    payments: (ctx: TenantContext, raw: DocumentsQuery) => lists.documents(ctx, raw, PAYMENT),
    expenses: (ctx: TenantContext, raw: DocumentsQuery) => lists.documents(ctx, raw, EXPENSE),
    accounts: lists.accounts,
    transactions: lists.transactions,
    incomeStatement: reports.incomeStatement,
    cashflow: reports.cashflow,
    accountStatement: reports.accountStatement,
    aging: partyReports.aging,
    balances: partyReports.balances,
    counterpartyStatement: partyReports.counterpartyStatement,
    debts: records.debts,
    counterparties: records.counterparties,
    inventory: records.inventory,
    trialBalance: ledgerReports.trialBalance,
    generalLedger: ledgerReports.generalLedger,
    balanceSheet: ledgerReports.balanceSheet,
    profitAndLoss: ledgerReports.profitAndLoss,
  };
};

export type FinanceExports = ReturnType<typeof createFinanceExports>;
