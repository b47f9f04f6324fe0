import type { PreparedExport } from "@hisob/core";
import type { TenantContext } from "@hisob/kernel";
import { z } from "zod";
import { accountsOperations, transactionsOperations } from "../accounts/accounts.operations";
import { counterpartiesOperations } from "../counterparties/counterparties.operations";
import { debtsOperations } from "../debts/debts.operations";
import type { FinanceServices } from "../finance-services";
import { generalLedgerOperations } from "../general-ledger/general-ledger.operations";
import { ZTrialBalanceQuery } from "../general-ledger/general-ledger.schema";
import {
  ZBalanceSheetQuery,
  ZGeneralLedgerQuery,
  ZProfitAndLossQuery,
} from "../general-ledger/ledger-reports.schema";
import { inventoryOperations } from "../inventory/inventory.operations";
import { op } from "../operations";
import { expensesOperations, paymentsOperations } from "../payments-expenses/payments-expenses.operations";
import { reportsOperations } from "../reports/reports.operations";
import {
  ZAccountStatementExportQuery,
  ZAgingQuery,
  ZBalancesQuery,
  ZCashflowQuery,
  ZCounterpartyStatementQuery,
  ZIncomeStatementQuery,
} from "../reports/reports.schema";
import {
  ZExportAccountsQuery,
  ZExportAccountTransactionsQuery,
  ZExportCounterpartiesQuery,
  ZExportDebtsQuery,
  ZExportDocumentsQuery,
  ZExportInventoryQuery,
} from "./export-queries.schema";

/*
 * Spreadsheet downloads of the finance lists and reports: the same query as the JSON route (lists
 * take every matching row unless `limit` is given), localized headers, money in each currency's
 * format. REST streams the file; tRPC checks the same and answers with this route's URL. Each needs
 * what its JSON list or report needs: the access is that operation's, not restated.
 */

type Exports = FinanceServices["exports"];
type Access = (typeof paymentsOperations.list)["access"];

const tag = "finance: downloads";

/** `GET path`: the whole input is the download's query. */
const download = <I extends z.ZodType>(
  path: string,
  input: I,
  access: Access,
  summary: string,
  call: (exports: Exports, ctx: TenantContext, query: z.output<I>) => Promise<PreparedExport>,
) =>
  op.download({
    http: { method: "GET", path, status: 200 },
    input,
    access,
    summary,
    tag,
    call: (services, ctx, query) => call(services.exports, ctx, query),
  });

/** `GET …/:id/…/export`: one account's download, its query beside the account's id. */
const accountDownload = <Q extends z.ZodType>(
  path: string,
  query: Q,
  access: Access,
  summary: string,
  call: (
    exports: Exports,
    ctx: TenantContext,
    accountId: string,
    query: z.output<Q>,
  ) => Promise<PreparedExport>,
) =>
  op.download({
    http: { method: "GET", path, status: 200, params: { id: "accountId" }, rest: "query" },
    input: z.object({ accountId: z.uuid(), query }),
    access,
    summary,
    tag,
    call: (services, ctx, input) => {
      // zod cannot name a generic object's output keys; this is the object built above.
      const { accountId, query: value } = input as { accountId: string; query: z.output<Q> };
      return call(services.exports, ctx, accountId, value);
    },
  });

export const exportsOperations = {
  payments: download(
    "/finance/payments/export",
    ZExportDocumentsQuery,
    paymentsOperations.list.access,
    "Payments as .xlsx, same filters as GET /finance/payments",
    (exports, ctx, query) => exports.payments(ctx, query),
  ),
  expenses: download(
    "/finance/expenses/export",
    ZExportDocumentsQuery,
    expensesOperations.list.access,
    "Expenses as .xlsx, same filters as GET /finance/expenses",
    (exports, ctx, query) => exports.expenses(ctx, query),
  ),
  accounts: download(
    "/finance/accounts/export",
    ZExportAccountsQuery,
    accountsOperations.list.access,
    "Money accounts with balances as .xlsx",
    (exports, ctx, query) => exports.accounts(ctx, query),
  ),
  transactions: accountDownload(
    "/finance/accounts/:id/transactions/export",
    ZExportAccountTransactionsQuery,
    transactionsOperations.list.access,
    "An account's transactions as .xlsx, same filters as the JSON list",
    (exports, ctx, accountId, query) => exports.transactions(ctx, accountId, query),
  ),
  debts: download(
    "/finance/debts/export",
    ZExportDebtsQuery,
    debtsOperations.list.access,
    "Debts as .xlsx, same filters as GET /finance/debts (undated debts last, as in the list)",
    (exports, ctx, query) => exports.debts(ctx, query),
  ),
  counterparties: download(
    "/finance/counterparties/export",
    ZExportCounterpartiesQuery,
    counterpartiesOperations.list.access,
    "Counterparties as .xlsx, same filters as GET /finance/counterparties",
    (exports, ctx, query) => exports.counterparties(ctx, query),
  ),
  inventory: download(
    "/finance/inventory/export",
    ZExportInventoryQuery,
    inventoryOperations.list.access,
    "Inventory items as .xlsx, same filters as GET /finance/inventory",
    (exports, ctx, query) => exports.inventory(ctx, query),
  ),
  incomeStatement: download(
    "/finance/reports/income-statement/export",
    ZIncomeStatementQuery,
    reportsOperations.incomeStatement.access,
    "The income statement as .xlsx",
    (exports, ctx, query) => exports.incomeStatement(ctx, query),
  ),
  cashflow: download(
    "/finance/reports/cashflow/export",
    ZCashflowQuery,
    reportsOperations.cashflow.access,
    "The cash flow report as .xlsx",
    (exports, ctx, query) => exports.cashflow(ctx, query),
  ),
  accountStatement: accountDownload(
    "/finance/reports/account-statement/:id/export",
    ZAccountStatementExportQuery,
    reportsOperations.accountStatement.access,
    "An account statement with running balances as .xlsx, every entry of the period",
    (exports, ctx, accountId, query) => exports.accountStatement(ctx, accountId, query),
  ),
  aging: download(
    "/finance/reports/aging/export",
    ZAgingQuery,
    reportsOperations.aging.access,
    "Receivables and payables aging as .xlsx",
    (exports, ctx, query) => exports.aging(ctx, query),
  ),
  balances: download(
    "/finance/reports/balances/export",
    ZBalancesQuery,
    reportsOperations.balances.access,
    "Balances at the end of a day as .xlsx",
    (exports, ctx, query) => exports.balances(ctx, query),
  ),
  counterpartyStatement: op.download({
    http: {
      method: "GET",
      path: "/finance/reports/counterparty-statement/:id/export",
      status: 200,
      params: { id: "counterpartyId" },
      rest: "query",
    },
    input: z.object({ counterpartyId: z.uuid(), query: ZCounterpartyStatementQuery }),
    access: reportsOperations.counterpartyStatement.access,
    summary: "A counterparty statement as .xlsx",
    tag,
    call: (services, ctx, input) =>
      services.exports.counterpartyStatement(ctx, input.counterpartyId, input.query),
  }),
  // The books' reports (docs/decisions/0101-books-reports.md).
  trialBalance: download(
    "/finance/ledger/trial-balance/export",
    ZTrialBalanceQuery,
    generalLedgerOperations.trialBalance.access,
    "The trial balance as .xlsx: the leaves with their totals, and the chart's groups with subtotals",
    (exports, ctx, query) => exports.trialBalance(ctx, query),
  ),
  generalLedger: op.download({
    http: {
      method: "GET",
      path: "/finance/ledger/general-ledger/:id/export",
      status: 200,
      params: { id: "accountId" },
      rest: "query",
    },
    input: z.object({ accountId: z.uuid(), query: ZGeneralLedgerQuery }),
    access: generalLedgerOperations.generalLedger.access,
    summary: "The general ledger of an account of the chart as .xlsx, every line of the period",
    tag,
    call: (services, ctx, input) => services.exports.generalLedger(ctx, input.accountId, input.query),
  }),
  balanceSheet: download(
    "/finance/ledger/balance-sheet/export",
    ZBalanceSheetQuery,
    generalLedgerOperations.balanceSheet.access,
    "The balance sheet as .xlsx",
    (exports, ctx, query) => exports.balanceSheet(ctx, query),
  ),
  profitAndLoss: download(
    "/finance/ledger/profit-and-loss/export",
    ZProfitAndLossQuery,
    generalLedgerOperations.profitAndLoss.access,
    "Profit and loss on the ledger as .xlsx",
    (exports, ctx, query) => exports.profitAndLoss(ctx, query),
  ),
};
