import { financeOperations } from "@hisob/finance";
import { pageArgsSdl, permissionsOf } from "../catalog-sdl";
import type { GraphqlContext } from "../context";
import { runOperation } from "../operations";
import type { GraphqlModule } from "../registry";
import { argumentsSdl } from "../zod-sdl";

/*
 * Finance reports: the operations REST and tRPC serve (the catalog's input schemas check the
 * arguments, the same services answer). Amounts are Int64 (minor units of the row's currency).
 */

const COMPARED = /* GraphQL */ `
  "A figure of a compared period beside the report's: its value, the change (report − compared), the change in %."
  type ComparedFigure {
    value: Int64!
    change: Int64!
    "Two decimals (\\"12.50\\"); null when the compared value is 0."
    changePercent: String
  }
  enum ComparePeriod {
    "The period of the same length right before (as many whole months when the report covers whole months)."
    previousPeriod
    "The same dates a year earlier."
    previousYear
  }
  type ComparedPeriod {
    compare: ComparePeriod!
    startDate: String!
    endDate: String!
  }
  type ComparedIncome {
    compare: ComparePeriod!
    revenue: ComparedFigure!
    expenses: ComparedFigure!
    netIncome: ComparedFigure!
  }
  type ComparedCashflow {
    compare: ComparePeriod!
    openingBalance: ComparedFigure!
    closingBalance: ComparedFigure!
    inflows: ComparedFigure!
    outflows: ComparedFigure!
    income: ComparedFigure!
    expense: ComparedFigure!
    transfersIn: ComparedFigure!
    transfersOut: ComparedFigure!
    exchangesIn: ComparedFigure!
    exchangesOut: ComparedFigure!
  }`;

const FLOWS = `
    inflows: Int64!
    outflows: Int64!
    income: Int64!
    expense: Int64!
    transfersIn: Int64!
    transfersOut: Int64!
    exchangesIn: Int64!
    exchangesOut: Int64!`;

const BUCKETS = `
    "Debts with something left due."
    debts: Int!
    "Due on or after the as-of day, or without a due date."
    notDue: Int64!
    days1To30: Int64!
    days31To60: Int64!
    days61To90: Int64!
    over90: Int64!
    total: Int64!`;

const { reports } = financeOperations;

const typeDefs = /* GraphQL */ `
${COMPARED}
  type IncomeCategoryLine {
    categoryId: ID
    categoryName: String
    amount: Int64!
  }
  type IncomeMonth {
    "YYYY-MM"
    month: String!
    revenue: Int64!
    expenses: Int64!
    netIncome: Int64!
  }
  type IncomeSection {
    currency: String!
    revenue: Int64!
    expenses: Int64!
    netIncome: Int64!
    "Per compared period, in the order of comparedPeriods."
    compared: [ComparedIncome!]!
    revenueByCategory: [IncomeCategoryLine!]!
    expensesByCategory: [IncomeCategoryLine!]!
    byMonth: [IncomeMonth!]!
  }
  type IncomeStatement {
    startDate: String!
    endDate: String!
    accountIds: [ID!]
    comparedPeriods: [ComparedPeriod!]!
    currencies: [IncomeSection!]!
  }
  enum CashflowGranularity {
    day
    week
    month
  }
  type CashflowPeriod {
    period: String!
    startDate: String!
    endDate: String!
    openingBalance: Int64!
    closingBalance: Int64!
${FLOWS}
  }
  type CashflowAccount {
    accountId: ID!
    name: String!
    currency: String!
    openingBalance: Int64!
    closingBalance: Int64!
${FLOWS}
    compared: [ComparedCashflow!]!
    periods: [CashflowPeriod!]!
  }
  type CashflowTotal {
    currency: String!
    openingBalance: Int64!
    closingBalance: Int64!
${FLOWS}
    compared: [ComparedCashflow!]!
  }
  type CashflowMovement {
    type: String!
    fromAccountId: ID!
    toAccountId: ID!
    count: Int!
    amount: Int64!
    destinationAmount: Int64!
  }
  type CashflowReport {
    startDate: String!
    endDate: String!
    granularity: CashflowGranularity!
    comparedPeriods: [ComparedPeriod!]!
    accounts: [CashflowAccount!]!
    totals: [CashflowTotal!]!
    movements: [CashflowMovement!]!
  }
  enum DebtKind {
    receivable
    payable
  }
  type AgingRow {
    kind: DebtKind!
    counterpartyId: ID!
    counterpartyName: String!
    currency: String!
${BUCKETS}
  }
  type AgingTotal {
    kind: DebtKind!
    currency: String!
${BUCKETS}
  }
  type AgingReport {
    asOf: String!
    rows: [AgingRow!]!
    totals: [AgingTotal!]!
  }
  "A column of the aging: a bucket of days past due, or the total."
  enum AgingColumn {
    notDue
    days1To30
    days31To60
    days61To90
    over90
    total
  }
  type AgingDebt {
    id: ID!
    counterpartyId: ID!
    counterpartyName: String!
    dueDate: String
    "Days past due at the end of asOf; null when not yet due."
    daysPastDue: Int
    amount: Int64!
    "What was left due at the end of asOf."
    left: Int64!
    description: String!
  }
  "The debts behind one aging figure, a page at a time; left, their sum at the end of asOf, is the figure."
  type AgingDebts {
    asOf: String!
    kind: DebtKind!
    currency: String!
    bucket: AgingColumn!
    total: Int!
    left: Int64!
    limit: Int!
    offset: Int!
    items: [AgingDebt!]!
  }
  type AccountBalanceOnDate {
    accountId: ID!
    name: String!
    number: String!
    currency: String!
    balance: Int64!
  }
  type CurrencyBalanceOnDate {
    currency: String!
    balance: Int64!
    accounts: Int!
  }
  type BalancesReport {
    date: String!
    "Accounts with an entry (an opening balance included) on or before the date."
    accounts: [AccountBalanceOnDate!]!
    totals: [CurrencyBalanceOnDate!]!
  }
  type StatementCounterparty {
    id: ID!
    name: String!
    tin: String!
  }
  type CounterpartyCurrency {
    currency: String!
    openingReceivable: Int64!
    openingPayable: Int64!
    closingReceivable: Int64!
    closingPayable: Int64!
    received: Int64!
    paid: Int64!
  }
  type CounterpartyEntry {
    date: String!
    "payment, expense, debt, settlement, writeOff, transfer or exchange"
    type: String!
    id: ID!
    debtId: ID
    debtKind: DebtKind
    accountId: ID
    currency: String!
    amount: Int64!
    receivableChange: Int64!
    payableChange: Int64!
    description: String!
  }
  type CounterpartyStatement {
    counterparty: StatementCounterparty!
    startDate: String!
    endDate: String!
    currencies: [CounterpartyCurrency!]!
    entries: [CounterpartyEntry!]!
  }
  type Query {
    "Income statement per currency (${permissionsOf(reports.incomeStatement)}); compare: beside each total, the compared periods' figures."
    incomeStatement(startDate: String!, endDate: String!, accountIds: [ID!], compare: [ComparePeriod!]): IncomeStatement!
    "Cash flow per account and period (${permissionsOf(reports.cashflow)}); compare as for incomeStatement."
    cashflow(
      startDate: String!
      endDate: String!
      accountIds: [ID!]
      granularity: CashflowGranularity = month
      compare: [ComparePeriod!]
    ): CashflowReport!
    "Receivables and payables aging at the end of asOf (${permissionsOf(reports.aging)}): a debt due on asOf is not yet due."
    agingReport(${argumentsSdl(reports.aging.input, "agingReport")}): AgingReport!
    "The debts one aging figure counts, each with what was left due at the end of asOf (${permissionsOf(reports.agingDebts)})."
    agingDebts(${argumentsSdl(reports.agingDebts.input, "agingDebts", { omit: ["offset", "limit"], fields: { kind: "DebtKind", bucket: "AgingColumn" } })}, ${pageArgsSdl(reports.agingDebts.input)}): AgingDebts!
    "Every account's balance at the end of date (${permissionsOf(reports.balances)})."
    balancesOnDate(date: String!, accountIds: [ID!]): BalancesReport!
    "Everything with one counterparty in a period, with what was owed each way before and after (${permissionsOf(reports.counterpartyStatement)})."
    counterpartyStatement(counterpartyId: ID!, startDate: String!, endDate: String!): CounterpartyStatement!
  }
`;

/** Arguments GraphQL sent, without the absent or null ones (the schemas default them). */
const present = (args: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined && value !== null));

export const reportsModule: GraphqlModule = {
  name: "reports",
  typeDefs,
  resolvers: {
    Query: {
      incomeStatement: (
        _: unknown,
        { accountIds, ...args }: Record<string, unknown>,
        context: GraphqlContext,
      ) =>
        runOperation(
          reports.incomeStatement,
          context.services.finance,
          context,
          present({ ...args, accountId: accountIds }),
        ),
      cashflow: (_: unknown, { accountIds, ...args }: Record<string, unknown>, context: GraphqlContext) =>
        runOperation(
          reports.cashflow,
          context.services.finance,
          context,
          present({ ...args, accountId: accountIds }),
        ),
      agingReport: (_: unknown, args: Record<string, unknown>, context: GraphqlContext) =>
        runOperation(reports.aging, context.services.finance, context, present(args)),
      agingDebts: (_: unknown, args: Record<string, unknown>, context: GraphqlContext) =>
        runOperation(reports.agingDebts, context.services.finance, context, present(args)),
      balancesOnDate: (
        _: unknown,
        { accountIds, ...args }: Record<string, unknown>,
        context: GraphqlContext,
      ) =>
        runOperation(
          reports.balances,
          context.services.finance,
          context,
          present({ ...args, accountId: accountIds }),
        ),
      counterpartyStatement: (
        _: unknown,
        { counterpartyId, ...query }: Record<string, unknown>,
        context: GraphqlContext,
      ) =>
        runOperation(reports.counterpartyStatement, context.services.finance, context, {
          counterpartyId,
          query,
        }),
    },
  },
};
