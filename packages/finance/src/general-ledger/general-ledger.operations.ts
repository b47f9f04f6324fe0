import { z } from "zod";
import { op, withId } from "../operations";
import {
  ZCreateGlAccountInput,
  ZGlAccountDto,
  ZGlMappingDto,
  ZInstallChartInput,
  ZMoveGlAccountInput,
  ZSetGlMappingInput,
  ZTrialBalance,
  ZTrialBalanceQuery,
  ZUpdateGlAccountInput,
} from "./general-ledger.schema";
import {
  ZBalanceSheet,
  ZBalanceSheetQuery,
  ZGeneralLedger,
  ZGeneralLedgerQuery,
  ZProfitAndLoss,
  ZProfitAndLossQuery,
} from "./ledger-reports.schema";

const tag = "finance: general ledger";
const path = "/finance/ledger/accounts";

/** The chart of accounts, the mappings onto it and the trial balance (docs/decisions/0093-general-ledger.md). */
export const generalLedgerOperations = {
  accounts: op.query({
    http: { method: "GET", path, status: 200 },
    output: z.array(ZGlAccountDto),
    access: { requires: ["accounts:read:all"] },
    summary: "The chart of accounts, by code",
    tag,
    call: (services, ctx) => services.generalLedger.accounts(ctx),
  }),
  installChart: op.mutation({
    http: { method: "PUT", path: "/finance/ledger/chart", status: 200 },
    input: ZInstallChartInput,
    output: z.array(ZGlAccountDto),
    access: { requires: ["accounts:update:all"] },
    summary:
      "Start the chart of accounts from a template (NAS 21 or a generic IFRS-style chart), while nothing is posted",
    tag,
    call: (services, ctx, input) => services.generalLedger.installChart(ctx, input),
  }),
  createAccount: op.mutation({
    http: { method: "POST", path, status: 201 },
    input: ZCreateGlAccountInput,
    output: ZGlAccountDto,
    access: { requires: ["accounts:update:all"] },
    summary: "Add an account to the chart, under a parent that takes no lines",
    tag,
    call: (services, ctx, input) => services.generalLedger.createAccount(ctx, input),
  }),
  updateAccount: op.mutation({
    http: { method: "PUT", path: `${path}/:id`, status: 200, rest: "data" },
    input: withId(ZUpdateGlAccountInput),
    output: ZGlAccountDto,
    access: { requires: ["accounts:update:all"] },
    summary: "Change an account's code, names or currency, or deactivate it",
    tag,
    call: (services, ctx, input) => services.generalLedger.updateAccount(ctx, input.id, input.data),
  }),
  moveAccount: op.mutation({
    http: { method: "PUT", path: `${path}/:id/parent`, status: 200, rest: "data" },
    input: withId(ZMoveGlAccountInput),
    output: ZGlAccountDto,
    access: { requires: ["accounts:update:all"] },
    summary:
      "Move an account (with its sub-accounts) under another parent of its type that takes no lines, or to the top",
    tag,
    call: (services, ctx, input) => services.generalLedger.moveAccount(ctx, input.id, input.data),
  }),
  deleteAccount: op.mutation({
    http: { method: "DELETE", path: `${path}/:id`, status: 204 },
    input: z.object({ id: z.uuid() }),
    output: z.null(),
    access: { requires: ["accounts:update:all"] },
    summary: "Delete an account nothing was posted to (one with lines can be deactivated)",
    tag,
    call: async (services, ctx, input) => {
      await services.generalLedger.deleteAccount(ctx, input.id);
      return null;
    },
  }),
  mappings: op.query({
    http: { method: "GET", path: "/finance/ledger/mappings", status: 200 },
    output: z.array(ZGlMappingDto),
    access: { requires: ["accounts:read:all"] },
    summary:
      "Where each money account and payment or expense category posts: its mapping and the leaf it posts to now",
    tag,
    call: (services, ctx) => services.generalLedger.mappings(ctx),
  }),
  setMapping: op.mutation({
    http: { method: "PUT", path: "/finance/ledger/mappings", status: 204 },
    input: ZSetGlMappingInput,
    output: z.null(),
    access: { requires: ["accounts:update:all"] },
    summary: "Post a money account or a category to an account of the chart (null: the chart's default)",
    tag,
    call: async (services, ctx, input) => {
      await services.generalLedger.setMapping(ctx, input);
      return null;
    },
  }),
  trialBalance: op.query({
    http: { method: "GET", path: "/finance/ledger/trial-balance", status: 200 },
    input: ZTrialBalanceQuery,
    output: ZTrialBalance,
    access: { requires: ["reports:read:all"] },
    summary:
      "Trial balance: opening balance, debit and credit turnover and closing balance per account, base currency",
    tag,
    call: (services, ctx, input) => services.generalLedger.trialBalance(ctx, input),
  }),
  // The books' reports (docs/decisions/0101-books-reports.md).
  generalLedger: op.query({
    http: {
      method: "GET",
      path: "/finance/ledger/general-ledger/:id",
      status: 200,
      params: { id: "accountId" },
      rest: "query",
    },
    input: z.object({ accountId: z.uuid(), query: ZGeneralLedgerQuery }),
    output: ZGeneralLedger,
    access: { requires: ["reports:read:all"] },
    summary:
      "General ledger of an account of the chart (a group: of its leaves): opening balance, each line with its running balance and document, closing balance",
    tag,
    call: (services, ctx, input) => services.generalLedger.generalLedger(ctx, input.accountId, input.query),
  }),
  balanceSheet: op.query({
    http: { method: "GET", path: "/finance/ledger/balance-sheet", status: 200 },
    input: ZBalanceSheetQuery,
    output: ZBalanceSheet,
    access: { requires: ["reports:read:all"] },
    summary:
      "Balance sheet at the end of a day: assets, liabilities and equity with the retained earnings not yet closed, optionally beside another day",
    tag,
    call: (services, ctx, input) => services.generalLedger.balanceSheet(ctx, input),
  }),
  profitAndLoss: op.query({
    http: { method: "GET", path: "/finance/ledger/profit-and-loss", status: 200 },
    input: ZProfitAndLossQuery,
    output: ZProfitAndLoss,
    access: { requires: ["reports:read:all"] },
    summary:
      "Profit and loss on the ledger: income and expense accounts of a period as a tree, the net result, compared with previous periods",
    tag,
    call: (services, ctx, input) => services.generalLedger.profitAndLoss(ctx, input),
  }),
};
