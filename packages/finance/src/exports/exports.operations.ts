import { z } from "zod";
import { op } from "../operations";
import {
  ZAccountStatementExportQuery,
  ZCashflowQuery,
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
 * format. REST streams the file; tRPC checks the same and answers with this route's URL.
 */

const tag = "finance: downloads";
const withAccount = <S extends z.ZodType>(query: S) => z.object({ accountId: z.uuid(), query });

export const exportsOperations = {
  payments: op.download({
    http: { method: "GET", path: "/finance/payments/export", status: 200 },
    input: ZExportDocumentsQuery,
    access: {
      requires: ["payments:read:all"],
      own: { permission: "payments:read:own", which: "those one created" },
    },
    summary: "Payments as .xlsx, same filters as GET /finance/payments",
    tag,
    call: (services, ctx, input) => services.exports.payments(ctx, input),
  }),
  expenses: op.download({
    http: { method: "GET", path: "/finance/expenses/export", status: 200 },
    input: ZExportDocumentsQuery,
    access: {
      requires: ["expenses:read:all"],
      own: { permission: "expenses:read:own", which: "those one recorded" },
    },
    summary: "Expenses as .xlsx, same filters as GET /finance/expenses",
    tag,
    call: (services, ctx, input) => services.exports.expenses(ctx, input),
  }),
  accounts: op.download({
    http: { method: "GET", path: "/finance/accounts/export", status: 200 },
    input: ZExportAccountsQuery,
    access: { requires: ["accounts:read:all"] },
    summary: "Money accounts with balances as .xlsx",
    tag,
    call: (services, ctx, input) => services.exports.accounts(ctx, input),
  }),
  transactions: op.download({
    http: {
      method: "GET",
      path: "/finance/accounts/:id/transactions/export",
      status: 200,
      params: { id: "accountId" },
      rest: "query",
    },
    input: withAccount(ZExportAccountTransactionsQuery),
    access: { requires: ["accounts:read:all"] },
    summary: "An account's transactions as .xlsx, same filters as the JSON list",
    tag,
    call: (services, ctx, input) => services.exports.transactions(ctx, input.accountId, input.query),
  }),
  debts: op.download({
    http: { method: "GET", path: "/finance/debts/export", status: 200 },
    input: ZExportDebtsQuery,
    access: { requires: ["debts:read:all"] },
    summary: "Debts as .xlsx, same filters as GET /finance/debts (undated debts last, as in the list)",
    tag,
    call: (services, ctx, input) => services.exports.debts(ctx, input),
  }),
  counterparties: op.download({
    http: { method: "GET", path: "/finance/counterparties/export", status: 200 },
    input: ZExportCounterpartiesQuery,
    access: { requires: ["counterparties:read:all"] },
    summary: "Counterparties as .xlsx, same filters as GET /finance/counterparties",
    tag,
    call: (services, ctx, input) => services.exports.counterparties(ctx, input),
  }),
  inventory: op.download({
    http: { method: "GET", path: "/finance/inventory/export", status: 200 },
    input: ZExportInventoryQuery,
    access: { requires: ["inventory:read:all"] },
    summary: "Inventory items as .xlsx, same filters as GET /finance/inventory",
    tag,
    call: (services, ctx, input) => services.exports.inventory(ctx, input),
  }),
  incomeStatement: op.download({
    http: { method: "GET", path: "/finance/reports/income-statement/export", status: 200 },
    input: ZIncomeStatementQuery,
    access: { requires: ["reports:read:all"] },
    summary: "The income statement as .xlsx",
    tag,
    call: (services, ctx, input) => services.exports.incomeStatement(ctx, input),
  }),
  cashflow: op.download({
    http: { method: "GET", path: "/finance/reports/cashflow/export", status: 200 },
    input: ZCashflowQuery,
    access: { requires: ["reports:read:all"] },
    summary: "The cash flow report as .xlsx",
    tag,
    call: (services, ctx, input) => services.exports.cashflow(ctx, input),
  }),
  accountStatement: op.download({
    http: {
      method: "GET",
      path: "/finance/reports/account-statement/:id/export",
      status: 200,
      params: { id: "accountId" },
      rest: "query",
    },
    input: withAccount(ZAccountStatementExportQuery),
    access: { requires: ["reports:read:all"] },
    summary: "An account statement with running balances as .xlsx, every entry of the period",
    tag,
    call: (services, ctx, input) => services.exports.accountStatement(ctx, input.accountId, input.query),
  }),
};
