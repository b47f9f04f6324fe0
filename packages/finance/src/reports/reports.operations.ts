import { z } from "zod";
import { op } from "../operations";
import {
  ZAccountStatement,
  ZAccountStatementQuery,
  ZAgingDebts,
  ZAgingDebtsQuery,
  ZAgingQuery,
  ZAgingReport,
  ZBalancesQuery,
  ZBalancesReport,
  ZCashflowQuery,
  ZCashflowReport,
  ZCounterpartyStatement,
  ZCounterpartyStatementQuery,
  ZIncomeStatement,
  ZIncomeStatementQuery,
} from "./reports.schema";

const tag = "finance: reports";

/** Reports over a period (ISO dates, inclusive), per currency, computed by SQL aggregates. */
export const reportsOperations = {
  incomeStatement: op.query({
    http: { method: "GET", path: "/finance/reports/income-statement", status: 200 },
    input: ZIncomeStatementQuery,
    output: ZIncomeStatement,
    access: { requires: ["reports:read:all"] },
    summary:
      "Income statement: revenue (income), expenses and net income per currency, by category and by month",
    tag,
    call: (services, ctx, input) => services.reports.incomeStatement(ctx, input),
  }),
  cashflow: op.query({
    http: { method: "GET", path: "/finance/reports/cashflow", status: 200 },
    input: ZCashflowQuery,
    output: ZCashflowReport,
    access: { requires: ["reports:read:all"] },
    summary:
      "Cash flow per account and per day, week or month, with opening and closing balances and the movements between accounts",
    tag,
    call: (services, ctx, input) => services.reports.cashflow(ctx, input),
  }),
  accountStatement: op.query({
    http: {
      method: "GET",
      path: "/finance/reports/account-statement/:id",
      status: 200,
      params: { id: "accountId" },
      rest: "query",
    },
    input: z.object({ accountId: z.uuid(), query: ZAccountStatementQuery }),
    output: ZAccountStatement,
    access: { requires: ["reports:read:all"] },
    summary: "Account statement: opening balance, each transaction with its running balance, closing balance",
    tag,
    call: (services, ctx, input) => services.reports.accountStatement(ctx, input.accountId, input.query),
  }),
  aging: op.query({
    http: { method: "GET", path: "/finance/reports/aging", status: 200 },
    input: ZAgingQuery,
    output: ZAgingReport,
    access: { requires: ["reports:read:all"] },
    summary:
      "Receivables and payables aging at the end of a day: what is left due per counterparty and currency, by days past due",
    tag,
    call: (services, ctx, input) => services.reports.aging(ctx, input),
  }),
  agingDebts: op.query({
    http: { method: "GET", path: "/finance/reports/aging/debts", status: 200 },
    input: ZAgingDebtsQuery,
    output: ZAgingDebts,
    access: { requires: ["reports:read:all"] },
    summary:
      "The debts behind one aging figure at the end of a day, each with what was left due then; their sum is the figure",
    tag,
    call: (services, ctx, input) => services.reports.agingDebts(ctx, input),
  }),
  balances: op.query({
    http: { method: "GET", path: "/finance/reports/balances", status: 200 },
    input: ZBalancesQuery,
    output: ZBalancesReport,
    access: { requires: ["reports:read:all"] },
    summary: "Every account's balance at the end of a day, per currency, from the balance checkpoints",
    tag,
    call: (services, ctx, input) => services.reports.balances(ctx, input),
  }),
  counterpartyStatement: op.query({
    http: {
      method: "GET",
      path: "/finance/reports/counterparty-statement/:id",
      status: 200,
      params: { id: "counterpartyId" },
      rest: "query",
    },
    input: z.object({ counterpartyId: z.uuid(), query: ZCounterpartyStatementQuery }),
    output: ZCounterpartyStatement,
    access: { requires: ["reports:read:all"] },
    summary:
      "Counterparty statement: payments, expenses, debts, settlements and write-offs in a period, with what was owed each way before and after",
    tag,
    call: (services, ctx, input) =>
      services.reports.counterpartyStatement(ctx, input.counterpartyId, input.query),
  }),
};
