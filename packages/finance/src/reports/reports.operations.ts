import { z } from "zod";
import { op } from "../operations";
import {
  ZAccountStatement,
  ZAccountStatementQuery,
  ZCashflowQuery,
  ZCashflowReport,
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
};
