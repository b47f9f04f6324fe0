import {
  ZAccountStatementExportQuery,
  ZCashflowQuery,
  ZExportAccountsQuery,
  ZExportAccountTransactionsQuery,
  ZExportCounterpartiesQuery,
  ZExportDebtsQuery,
  ZExportDocumentsQuery,
  ZExportInventoryQuery,
  ZIncomeStatementQuery,
} from "@hisob/finance";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppServices } from "../app-services";
import { ctxOf } from "../http/auth-context";
import { takeDownloadLang } from "../http/download-locale";
import { sendXlsx, XLSX_CONTENT_TYPE } from "../http/xlsx-reply";

const tags = ["finance: downloads"];
const ZIdParams = z.object({ id: z.uuid() });
const produces = [XLSX_CONTENT_TYPE];

/**
 * Spreadsheet downloads of the finance lists and reports: the same query as the JSON route (lists
 * take every matching row unless `limit` is given), localized headers, money in each currency's format.
 */
export const financeExportsRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (
  app,
  { services },
) => {
  const exports = services.finance.exports;
  app.addHook("preValidation", takeDownloadLang);

  app.get(
    "/finance/payments/export",
    {
      schema: {
        tags,
        summary: "Payments as .xlsx, same filters as GET /finance/payments (payments:read:all or :own)",
        querystring: ZExportDocumentsQuery,
        produces,
      },
    },
    async (request, reply) => sendXlsx(request, reply, await exports.payments(ctxOf(request), request.query)),
  );

  app.get(
    "/finance/expenses/export",
    {
      schema: {
        tags,
        summary: "Expenses as .xlsx, same filters as GET /finance/expenses (expenses:read:all or :own)",
        querystring: ZExportDocumentsQuery,
        produces,
      },
    },
    async (request, reply) => sendXlsx(request, reply, await exports.expenses(ctxOf(request), request.query)),
  );

  app.get(
    "/finance/accounts/export",
    {
      schema: {
        tags,
        summary: "Money accounts with balances as .xlsx (accounts:read:all)",
        querystring: ZExportAccountsQuery,
        produces,
      },
    },
    async (request, reply) => sendXlsx(request, reply, await exports.accounts(ctxOf(request), request.query)),
  );

  app.get(
    "/finance/accounts/:id/transactions/export",
    {
      schema: {
        tags,
        summary: "An account's transactions as .xlsx, same filters as the JSON list (accounts:read:all)",
        params: ZIdParams,
        querystring: ZExportAccountTransactionsQuery,
        produces,
      },
    },
    async (request, reply) =>
      sendXlsx(request, reply, await exports.transactions(ctxOf(request), request.params.id, request.query)),
  );

  for (const [path, query, summary, prepare] of [
    [
      "/finance/debts/export",
      ZExportDebtsQuery,
      "Debts as .xlsx, same filters as GET /finance/debts (debts:read:all)",
      exports.debts,
    ],
    [
      "/finance/counterparties/export",
      ZExportCounterpartiesQuery,
      "Counterparties as .xlsx, same filters as GET /finance/counterparties (counterparties:read:all)",
      exports.counterparties,
    ],
    [
      "/finance/inventory/export",
      ZExportInventoryQuery,
      "Inventory items as .xlsx, same filters as GET /finance/inventory (inventory:read:all)",
      exports.inventory,
    ],
  ] as const) {
    app.get(path, { schema: { tags, summary, querystring: query, produces } }, async (request, reply) =>
      sendXlsx(request, reply, await prepare(ctxOf(request), request.query)),
    );
  }

  app.get(
    "/finance/reports/income-statement/export",
    {
      schema: {
        tags,
        summary: "The income statement as .xlsx (reports:read:all)",
        querystring: ZIncomeStatementQuery,
        produces,
      },
    },
    async (request, reply) =>
      sendXlsx(request, reply, await exports.incomeStatement(ctxOf(request), request.query)),
  );

  app.get(
    "/finance/reports/cashflow/export",
    {
      schema: {
        tags,
        summary: "The cash flow report as .xlsx (reports:read:all)",
        querystring: ZCashflowQuery,
        produces,
      },
    },
    async (request, reply) => sendXlsx(request, reply, await exports.cashflow(ctxOf(request), request.query)),
  );

  app.get(
    "/finance/reports/account-statement/:id/export",
    {
      schema: {
        tags,
        summary:
          "An account statement with running balances as .xlsx, every entry of the period (reports:read:all)",
        params: ZIdParams,
        querystring: ZAccountStatementExportQuery,
        produces,
      },
    },
    async (request, reply) =>
      sendXlsx(
        request,
        reply,
        await exports.accountStatement(ctxOf(request), request.params.id, request.query),
      ),
  );
};
