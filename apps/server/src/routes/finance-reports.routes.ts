import {
  ZAccountStatement,
  ZAccountStatementQuery,
  ZCashflowQuery,
  ZCashflowReport,
  ZIncomeStatement,
  ZIncomeStatementQuery,
} from "@hisob/finance";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppServices } from "../app-services";
import { ctxOf } from "../http/auth-context";

const tags = ["finance: reports"];

/** Reports over a period (ISO dates, inclusive), per currency, computed by SQL aggregates. */
export const financeReportsRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (
  app,
  { services },
) => {
  const { reports } = services.finance;

  app.get(
    "/finance/reports/income-statement",
    {
      schema: {
        tags,
        summary:
          "Income statement: revenue (income), expenses and net income per currency, by category and by month (reports:read:all)",
        querystring: ZIncomeStatementQuery,
        response: { 200: ZIncomeStatement },
      },
    },
    (request) => reports.incomeStatement(ctxOf(request), request.query),
  );

  app.get(
    "/finance/reports/cashflow",
    {
      schema: {
        tags,
        summary:
          "Cash flow per account and per day, week or month, with opening and closing balances and the movements between accounts (reports:read:all)",
        querystring: ZCashflowQuery,
        response: { 200: ZCashflowReport },
      },
    },
    (request) => reports.cashflow(ctxOf(request), request.query),
  );

  app.get(
    "/finance/reports/account-statement/:id",
    {
      schema: {
        tags,
        summary:
          "Account statement: opening balance, each transaction with its running balance, closing balance (reports:read:all)",
        params: z.object({ id: z.uuid() }),
        querystring: ZAccountStatementQuery,
        response: { 200: ZAccountStatement },
      },
    },
    (request) => reports.accountStatement(ctxOf(request), request.params.id, request.query),
  );
};
