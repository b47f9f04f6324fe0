import {
  DOCUMENT_SORT_FIELDS,
  financeOperations,
  type TCategoryDto,
  type TCounterpartyDto,
  type TDocumentDto,
  type TMoneyAccountDto,
  type TTransactionDto,
} from "@hisob/finance";
import {
  type FilterSpec,
  parseFilters,
  parseSort,
  type TenantContext,
  type TypedFilter,
} from "@hisob/kernel";
import DataLoader from "dataloader";
import { callerOf, type GraphqlContext } from "../context";
import { runOperation } from "../operations";
import type { GraphqlModule } from "../registry";

/*
 * Finance: payments, expenses, an account's transactions, and the money accounts, counterparties and
 * categories they point to. Lists and writes call the ledger's services (the ones REST and tRPC call);
 * the records a page points to are read through per-request loaders, one query per kind per page.
 */

/** Payments and expenses have the same shape (one ledger entry each). */
const DOCUMENT_FIELDS = /* GraphQL */ `
    id: ID!
    accountId: ID!
    "Needs accounts:read:all (else null with a FORBIDDEN error at this path)."
    account: MoneyAccount
    currency: String!
    amount: Int64!
    "Calendar date, YYYY-MM-DD."
    date: String!
    counterpartyId: ID
    counterparty: Counterparty
    categoryId: ID
    category: Category
    comment: String!
    transactionId: ID!
    createdBy: ID!
    createdAt: Time!
    updatedAt: Time!`;

const typeDefs = /* GraphQL */ `
  type MoneyAccount {
    id: ID!
    name: String!
    number: String!
    currency: String!
    "Minor units of the account's currency."
    balance: Int64!
    allowOverdraft: Boolean!
    description: String!
    createdAt: Time!
    updatedAt: Time!
  }

  type Counterparty {
    id: ID!
    name: String!
    tin: String!
    type: String!
    phone: String!
    email: String!
    createdAt: Time!
  }

  type Category {
    id: ID!
    name: String!
    parentId: ID
  }

  "Money in: a payment received into an account."
  type Payment {
${DOCUMENT_FIELDS}
  }

  "Money out: an expense paid from an account."
  type Expense {
${DOCUMENT_FIELDS}
  }

  enum TransactionType {
    income
    expense
    transfer
    exchange
    "What the account held when its books moved here: neither revenue nor expense."
    opening_balance
  }

  "A ledger entry of an account."
  type Transaction {
    id: ID!
    type: TransactionType!
    "In the origin account's currency."
    amount: Int64!
    destinationAmount: Int64
    "Decimal string: destination minor units per origin minor unit."
    exchangeRate: String
    date: String!
    originAccountId: ID
    originAccount: MoneyAccount
    destinationAccountId: ID
    destinationAccount: MoneyAccount
    "What the entry did to the listed account's balance (negative: out)."
    change: Int64!
    comment: String!
    paymentId: ID
    expenseId: ID
    createdBy: ID!
    createdAt: Time!
  }

  type PaginatedPayments {
    data: [Payment!]!
    total: Int64!
  }
  type PaginatedExpenses {
    data: [Expense!]!
    total: Int64!
  }
  type PaginatedMoneyAccounts {
    data: [MoneyAccount!]!
    total: Int!
  }

  type PaginatedTransactions {
    data: [Transaction!]!
    total: Int64!
  }

  input DocumentInput {
    accountId: ID!
    "Minor units of the account's currency, > 0."
    amount: Int64!
    "Optional guard: must be the account's currency."
    currency: String
    "YYYY-MM-DD"
    date: String!
    counterpartyId: ID
    categoryId: ID
    comment: String
  }

  type Query {
    """
    The organization's money accounts (accounts:read:all), as GET /finance/accounts: sortBy one of name,
    createdAt, balance (id breaks ties); search: a part of the name or number; currency: its code.
    """
    moneyAccounts(offset: Int = 0, limit: Int = 20, sortBy: String = "name", ascending: Boolean = true, search: String, currency: String): PaginatedMoneyAccounts!
    """
    Payments (payments:read:all; with only payments:read:own, those one created). sortBy: up to five of
    date, amount, createdAt, in order (id breaks ties). Filters: accountId, counterpartyId, categoryId, createdBy (eq); date (eq, gte, lte).
    """
    payments(offset: Int = 0, limit: Int = 20, sortBy: [String!], ascending: Boolean = false, filters: [Filter!]): PaginatedPayments!
    "Expenses, as payments (expenses:read:*)."
    expenses(offset: Int = 0, limit: Int = 20, sortBy: [String!], ascending: Boolean = false, filters: [Filter!]): PaginatedExpenses!
    "An account's ledger entries (accounts:read:all). Filters: date (eq, gte, lte), type (eq)."
    transactions(accountId: ID!, offset: Int = 0, limit: Int = 20, ascending: Boolean = false, filters: [Filter!]): PaginatedTransactions!
  }

  type Mutation {
    """
    Records money received (payments:create:all): the payment, its ledger entry and the balance, in one
    transaction. idempotencyKey (or the Idempotency-Key header): one key per intent; sent again with the same
    input within 24 hours it answers the first payment and posts nothing; with other input, BUSINESS_RULE
    idempotency.key_reused.
    """
    createPayment(input: DocumentInput!, idempotencyKey: String): Payment!
    "Records money paid out (expenses:create:all); refused with BUSINESS_RULE when the balance would go below zero. idempotencyKey as for createPayment."
    recordExpense(input: DocumentInput!, idempotencyKey: String): Expense!
  }
`;

const DOCUMENT_FILTERS: FilterSpec = {
  accountId: { kind: "uuid", operators: ["eq"] },
  counterpartyId: { kind: "uuid", operators: ["eq"] },
  categoryId: { kind: "uuid", operators: ["eq"] },
  createdBy: { kind: "uuid", operators: ["eq"] },
  date: { kind: "date", operators: ["eq", "gte", "lte"] },
};

const TRANSACTION_FILTERS: FilterSpec = {
  date: { kind: "date", operators: ["eq", "gte", "lte"] },
  type: {
    kind: "enum",
    values: ["income", "expense", "transfer", "exchange", "opening_balance"],
    operators: ["eq"],
  },
};

const isoDay = (value: unknown) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value));

/** The grammar's conditions as the list's own query fields (equality → the field; dates → from/to). */
const toQueryFields = (filters: readonly TypedFilter[]): Record<string, string> => {
  const fields: Record<string, string> = {};
  for (const { column, operator, value } of filters) {
    if (column === "date") {
      if (operator === "eq" || operator === "gte") fields.from = isoDay(value);
      if (operator === "eq" || operator === "lte") fields.to = isoDay(value);
    } else {
      fields[column] = String(value);
    }
  }
  return fields;
};

type ListArgs = {
  offset?: number;
  limit?: number;
  sortBy?: string[] | null;
  ascending?: boolean | null;
  filters?: unknown;
};

const documentQuery = (args: ListArgs) => ({
  offset: args.offset ?? 0,
  limit: args.limit ?? 20,
  ...(args.sortBy
    ? { sortBy: parseSort(DOCUMENT_SORT_FIELDS, args.sortBy, "asc").map((each) => each.field) }
    : {}),
  order: args.ascending ? "asc" : "desc",
  ...toQueryFields(parseFilters(DOCUMENT_FILTERS, args.filters)),
});

/** One loader per kind per request: every id asked for in one tick is one service call (one query). */
const byIdLoader = <T extends { id: string }>(
  context: GraphqlContext,
  key: string,
  load: (caller: TenantContext, ids: readonly string[]) => Promise<T[]>,
) =>
  context.loaders.use(
    key,
    () =>
      new DataLoader<string, T | null>(async (ids) => {
        const rows = await load(callerOf(context), ids);
        const byId = new Map(rows.map((row) => [row.id, row]));
        return ids.map((id) => byId.get(id) ?? null);
      }),
  );

const accountOf = (context: GraphqlContext, id: string | null) =>
  id
    ? byIdLoader<TMoneyAccountDto>(context, "finance.accounts", (caller, ids) =>
        context.services.finance.accounts.findByIds(caller, ids),
      ).load(id)
    : null;

const counterpartyOf = (context: GraphqlContext, id: string | null) =>
  id
    ? byIdLoader<TCounterpartyDto>(context, "finance.counterparties", (caller, ids) =>
        context.services.finance.counterparties.findByIds(caller, ids),
      ).load(id)
    : null;

const categoryOf = (context: GraphqlContext, kind: "payment" | "expense", id: string | null) =>
  id
    ? byIdLoader<TCategoryDto>(context, `finance.${kind}Categories`, (caller, ids) =>
        (kind === "payment"
          ? context.services.finance.paymentCategories
          : context.services.finance.expenseCategories
        ).findByIds(caller, ids),
      ).load(id)
    : null;

const documentFields = (kind: "payment" | "expense") => ({
  account: (document: TDocumentDto, _: unknown, context: GraphqlContext) =>
    accountOf(context, document.accountId),
  counterparty: (document: TDocumentDto, _: unknown, context: GraphqlContext) =>
    counterpartyOf(context, document.counterpartyId),
  category: (document: TDocumentDto, _: unknown, context: GraphqlContext) =>
    categoryOf(context, kind, document.categoryId),
});

export const financeModule: GraphqlModule = {
  name: "finance",
  typeDefs,
  resolvers: {
    Payment: documentFields("payment"),
    Expense: documentFields("expense"),
    Transaction: {
      originAccount: (entry: TTransactionDto, _: unknown, context: GraphqlContext) =>
        accountOf(context, entry.originAccountId),
      destinationAccount: (entry: TTransactionDto, _: unknown, context: GraphqlContext) =>
        accountOf(context, entry.destinationAccountId),
    },
    Query: {
      moneyAccounts: async (_: unknown, args: MoneyAccountsArgs, context: GraphqlContext) => {
        const page = await context.services.finance.accounts.list(callerOf(context), {
          offset: args.offset ?? 0,
          limit: args.limit ?? 20,
          sortBy: (args.sortBy ?? "name") as never,
          order: args.ascending === false ? "desc" : "asc",
          ...(args.search ? { search: args.search } : {}),
          ...(args.currency ? { currency: args.currency } : {}),
        });
        return { data: page.items, total: page.total };
      },
      payments: async (_: unknown, args: ListArgs, context: GraphqlContext) => {
        const page = await context.services.finance.payments.list(
          callerOf(context),
          documentQuery(args) as never,
        );
        return { data: page.items, total: page.total };
      },
      expenses: async (_: unknown, args: ListArgs, context: GraphqlContext) => {
        const page = await context.services.finance.expenses.list(
          callerOf(context),
          documentQuery(args) as never,
        );
        return { data: page.items, total: page.total };
      },
      transactions: async (_: unknown, args: ListArgs & { accountId: string }, context: GraphqlContext) => {
        const caller = callerOf(context);
        const query = {
          offset: args.offset ?? 0,
          limit: args.limit ?? 20,
          order: args.ascending ? "asc" : "desc",
          ...toQueryFields(parseFilters(TRANSACTION_FILTERS, args.filters)),
        };
        const page = await context.services.finance.accounts.transactions(
          caller,
          args.accountId,
          query as never,
        );
        return { data: page.items, total: page.total };
      },
    },
    Mutation: {
      createPayment: (_: unknown, args: PostingArgs, context: GraphqlContext) =>
        runOperation(
          financeOperations.payments.create,
          context.services.finance,
          context,
          withoutNulls(args.input),
          args.idempotencyKey,
        ),
      recordExpense: (_: unknown, args: PostingArgs, context: GraphqlContext) =>
        runOperation(
          financeOperations.expenses.create,
          context.services.finance,
          context,
          withoutNulls(args.input),
          args.idempotencyKey,
        ),
    },
  },
};

type MoneyAccountsArgs = {
  offset?: number | null;
  limit?: number | null;
  sortBy?: string | null;
  ascending?: boolean | null;
  search?: string | null;
  currency?: string | null;
};

type PostingArgs = { input: Record<string, unknown>; idempotencyKey?: string | null };

/** GraphQL sends unset optional inputs as absent or null; the service's schema treats absent as default. */
const withoutNulls = (input: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(input).filter(
      ([key, value]) =>
        value !== undefined && (value !== null || key === "counterpartyId" || key === "categoryId"),
    ),
  );
