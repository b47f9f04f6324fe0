import {
  financeOperations,
  ZBalanceSheetFigure,
  ZBalanceSheetLine,
  ZBalanceSheetSide,
  ZComparedProfitAndLoss,
  ZGeneralLedgerDocument,
  ZGeneralLedgerLine,
  ZGeneralLedgerSource,
  ZGlAccountDto,
  ZLedgerAccount,
  ZProfitAndLossLine,
  ZTrialBalanceRow,
  ZTrialBalanceTreeRow,
} from "@hisob/finance";
import { fieldOf, pageArgsSdl, permissionsOf, routeOf } from "../catalog-sdl";
import type { GraphqlContext } from "../context";
import { runOperation } from "../operations";
import type { GraphqlModule } from "../registry";
import { argumentsSdl, enumTypeSdl, objectTypeSdl } from "../zod-sdl";

/*
 * The books' reports on the general ledger (docs/decisions/0101-books-reports.md): trial balance,
 * general ledger of an account, balance sheet, profit and loss — their types printed from the
 * catalog's output schemas, their arguments from its input schemas (decision 0095); the same
 * operations REST and tRPC serve. Amounts are Int64, minor units of the base currency.
 */

const { generalLedger: ledger } = financeOperations;

const MINOR = "Int64";
const FIGURES = { opening: MINOR, debit: MINOR, credit: MINOR, closing: MINOR } as const;
const ACCOUNT = { type: "GlAccountType" } as const;

const typeDefs = /* GraphQL */ `
${enumTypeSdl("GlAccountType", fieldOf(ZLedgerAccount, "type", "output"))}
${enumTypeSdl("GlDocumentKind", fieldOf(ZGeneralLedgerDocument, "kind", "output"), {
  description: "What a journal line's entry was posted for; a settlement's id is its debt's.",
})}
${objectTypeSdl("LedgerAccount", ZLedgerAccount, { fields: ACCOUNT, description: "An account of the chart as a report names it." })}
${objectTypeSdl("GlAccount", ZGlAccountDto, { fields: ACCOUNT, description: "An account of the chart of accounts." })}
${objectTypeSdl("TrialBalanceRow", ZTrialBalanceRow, { fields: { ...ACCOUNT, ...FIGURES } })}
${objectTypeSdl("TrialBalanceTreeRow", ZTrialBalanceTreeRow, { fields: { ...ACCOUNT, ...FIGURES } })}
${objectTypeSdl("TrialBalanceTotals", fieldOf(ledger.trialBalance.output, "totals", "output"), { fields: FIGURES })}
${objectTypeSdl("TrialBalance", ledger.trialBalance.output, {
  fields: { rows: "TrialBalanceRow", tree: "TrialBalanceTreeRow", totals: "TrialBalanceTotals" },
})}
${objectTypeSdl("GeneralLedgerSource", ZGeneralLedgerSource)}
${objectTypeSdl("GeneralLedgerDocument", ZGeneralLedgerDocument, { fields: { kind: "GlDocumentKind" } })}
${objectTypeSdl("GeneralLedgerLine", ZGeneralLedgerLine, {
  fields: {
    amount: { type: MINOR, description: "In the line's own currency, debit positive." },
    debit: MINOR,
    credit: MINOR,
    balance: MINOR,
    source: "GeneralLedgerSource",
    document: "GeneralLedgerDocument",
  },
})}
${objectTypeSdl("GeneralLedger", ledger.generalLedger.output, {
  fields: { account: "LedgerAccount", lines: "GeneralLedgerLine", ...FIGURES },
})}
${objectTypeSdl("BalanceSheetLine", ZBalanceSheetLine, { fields: { ...ACCOUNT, amount: MINOR, compared: MINOR } })}
${objectTypeSdl("BalanceSheetSide", ZBalanceSheetSide, {
  fields: { lines: "BalanceSheetLine", total: MINOR, comparedTotal: MINOR },
})}
${objectTypeSdl("BalanceSheetFigure", ZBalanceSheetFigure, { fields: { amount: MINOR, compared: MINOR } })}
${objectTypeSdl("BalanceSheet", ledger.balanceSheet.output, {
  fields: {
    assets: "BalanceSheetSide",
    liabilities: "BalanceSheetSide",
    equity: "BalanceSheetSide",
    retainedEarnings: "BalanceSheetFigure",
    liabilitiesAndEquity: "BalanceSheetFigure",
    difference: MINOR,
    comparedDifference: MINOR,
  },
})}
${objectTypeSdl("ProfitAndLossLine", ZProfitAndLossLine, { fields: { ...ACCOUNT, amount: MINOR, compared: MINOR } })}
${objectTypeSdl("ComparedProfitAndLoss", ZComparedProfitAndLoss, {
  fields: {
    compare: "ComparePeriod",
    income: "ComparedFigure",
    expenses: "ComparedFigure",
    netResult: "ComparedFigure",
  },
})}
${objectTypeSdl("ProfitAndLoss", ledger.profitAndLoss.output, {
  fields: {
    comparedPeriods: "ComparedPeriod",
    incomeLines: "ProfitAndLossLine",
    expenseLines: "ProfitAndLossLine",
    income: MINOR,
    expenses: MINOR,
    netResult: MINOR,
    compared: "ComparedProfitAndLoss",
  },
})}
  type Query {
    "Trial balance per leaf with the chart's groups' subtotals, base currency (${permissionsOf(ledger.trialBalance)})."
    trialBalance(${argumentsSdl(ledger.trialBalance.input, "trialBalance")}): TrialBalance!
    "General ledger of an account of the chart (a group: of its leaves), paged lines with running balances (${permissionsOf(ledger.generalLedger)})."
    generalLedger(accountId: ID!, ${argumentsSdl(fieldOf(ledger.generalLedger.input, "query"), "generalLedger", { omit: ["offset", "limit"] })}, ${pageArgsSdl(fieldOf(ledger.generalLedger.input, "query"))}): GeneralLedger!
    "Balance sheet at the end of date, optionally beside compareDate (${permissionsOf(ledger.balanceSheet)})."
    balanceSheet(${argumentsSdl(ledger.balanceSheet.input, "balanceSheet")}): BalanceSheet!
    "Profit and loss on the ledger's income and expense accounts (${permissionsOf(ledger.profitAndLoss)})."
    profitAndLoss(startDate: String!, endDate: String!, compare: [ComparePeriod!]): ProfitAndLoss!
    "The chart of accounts, by code (${permissionsOf(ledger.accounts)})."
    glAccounts: [GlAccount!]!
  }

  type Mutation {
    "Moves an account with its sub-accounts under another parent of its type that takes no lines; parentId null: to the top (${permissionsOf(ledger.moveAccount)}), as ${routeOf(ledger.moveAccount)}."
    moveGlAccount(id: ID!, parentId: ID): GlAccount!
  }
`;

/** Arguments GraphQL sent, without the absent or null ones (the schemas default them). */
const present = (args: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined && value !== null));

export const ledgerModule: GraphqlModule = {
  name: "ledger",
  typeDefs,
  resolvers: {
    Query: {
      trialBalance: (_: unknown, args: Record<string, unknown>, context: GraphqlContext) =>
        runOperation(ledger.trialBalance, context.services.finance, context, present(args)),
      generalLedger: (
        _: unknown,
        { accountId, ...query }: Record<string, unknown>,
        context: GraphqlContext,
      ) =>
        runOperation(ledger.generalLedger, context.services.finance, context, {
          accountId,
          query: present(query),
        }),
      balanceSheet: (_: unknown, args: Record<string, unknown>, context: GraphqlContext) =>
        runOperation(ledger.balanceSheet, context.services.finance, context, present(args)),
      profitAndLoss: (_: unknown, args: Record<string, unknown>, context: GraphqlContext) =>
        runOperation(ledger.profitAndLoss, context.services.finance, context, present(args)),
      glAccounts: (_: unknown, _args: unknown, context: GraphqlContext) =>
        runOperation(ledger.accounts, context.services.finance, context, undefined),
    },
    Mutation: {
      // An absent parentId is refused (VALIDATION_ERROR): moving to the top is said with null.
      moveGlAccount: (_: unknown, { id, ...data }: Record<string, unknown>, context: GraphqlContext) =>
        runOperation(ledger.moveAccount, context.services.finance, context, { id, data }),
    },
  },
};
