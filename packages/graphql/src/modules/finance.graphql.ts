import {
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
import type { z } from "zod";
import {
  defaultOf,
  fieldOf,
  idempotencyArgSdl,
  pageArgsSdl,
  pageItemOf,
  permissionsOf,
  routeOf,
} from "../catalog-sdl";
import { callerOf, type GraphqlContext } from "../context";
import { runOperation } from "../operations";
import type { GraphqlModule } from "../registry";
import { argumentsSdl, enumTypeSdl, enumValuesOf, inputTypeSdl, objectTypeSdl } from "../zod-sdl";

/*
 * Finance: payments, expenses, an account's transactions, and the money accounts, counterparties and
 * categories they point to. The types, inputs, arguments and permissions are the catalog's
 * (`financeOperations`: the declarations REST, tRPC and OpenAPI read); lists and writes run its
 * operations. The records a page points to are read through per-request loaders, one query per kind per page.
 */

/** Money the GraphQL types carry as Int64 (zod reads it as a decimal string). */
const MINOR_UNITS = "Int64";

const { accounts, transactions, payments, expenses, counterparties, paymentCategories, periods } =
  financeOperations;

const ACCOUNT_RELATION = /* GraphQL */ `    "Needs ${permissionsOf(accounts.get)} (else null with a FORBIDDEN error at this path)."
    account: MoneyAccount
    counterparty: Counterparty
    category: Category
`;

/** Payments and expenses have the same shape (one ledger entry each): their REST DTO, and the records they point to. */
const documentType = (name: string, description: string, schema: z.ZodType) =>
  objectTypeSdl(name, schema, {
    description,
    fields: {
      amount: MINOR_UNITS,
      date: { description: "Calendar date, YYYY-MM-DD." },
    },
    extra: ACCOUNT_RELATION,
  });

const transactionItem = pageItemOf(transactions.list.output);
/** The fields payments and expenses sort by, in the list query's own enum. */
const DOCUMENT_SORTS = enumValuesOf(fieldOf(payments.list.input, "sortBy"), "payments.sortBy");
const transactionsQuery = fieldOf(transactions.list.input, "query");

const typeDefs = /* GraphQL */ `
${objectTypeSdl("MoneyAccount", accounts.get.output, {
  fields: { balance: { type: MINOR_UNITS, description: "Minor units of the account's currency." } },
})}
${objectTypeSdl("Counterparty", counterparties.get.output, {
  // A string on the wire since the first schema; the values are the catalog's enum.
  fields: { type: "String" },
})}
${objectTypeSdl("Category", paymentCategories.get.output)}
${objectTypeSdl("ClosedPeriod", periods.get.output, {
  description: "The day the organization's books are closed through (docs/decisions/0094-closed-periods.md).",
})}
${documentType("Payment", "Money in: a payment received into an account.", payments.get.output)}
${documentType("Expense", "Money out: an expense paid from an account.", expenses.get.output)}
${enumTypeSdl("TransactionType", fieldOf(transactionItem, "type"), {
  values: {
    opening_balance: "What the account held when its books moved here: neither revenue nor expense.",
  },
})}
${objectTypeSdl("Transaction", transactionItem, {
  description: "A ledger entry of an account.",
  fields: {
    type: "TransactionType",
    amount: { type: MINOR_UNITS, description: "In the origin account's currency." },
    destinationAmount: MINOR_UNITS,
    exchangeRate: { description: "Decimal string: destination minor units per origin minor unit." },
    change: {
      type: MINOR_UNITS,
      description: "What the entry did to the listed account's balance (negative: out).",
    },
  },
  extra: `    originAccount: MoneyAccount
    destinationAccount: MoneyAccount
`,
})}
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

${inputTypeSdl("DocumentInput", payments.create.input, {
  fields: {
    amount: { type: MINOR_UNITS, description: "Minor units of the account's currency, > 0." },
    currency: { description: "Optional guard: must be the account's currency." },
    date: { description: "YYYY-MM-DD" },
  },
})}
  type Query {
    """
    The organization's money accounts (${permissionsOf(accounts.list)}), as ${routeOf(accounts.list)}: sortBy one of
    ${enumValuesOf(fieldOf(accounts.list.input, "sortBy"), "moneyAccounts.sortBy").join(", ")} (id breaks ties); search: a part of the name or number; currency: its code.
    """
    moneyAccounts(${pageArgsSdl(accounts.list.input)}, sortBy: String = "${defaultOf(fieldOf(accounts.list.input, "sortBy"))}", ascending: Boolean = ${defaultOf(fieldOf(accounts.list.input, "order")) === "asc"}, ${argumentsSdl(accounts.list.input, "moneyAccounts", { omit: ["offset", "limit", "sortBy", "order"] })}): PaginatedMoneyAccounts!
    """
    Payments (${permissionsOf(payments.list)}). sortBy: up to five of
    ${DOCUMENT_SORTS.join(", ")}, in order (id breaks ties). Filters: accountId, counterpartyId, categoryId, createdBy (eq); date (eq, gte, lte).
    """
    payments(${pageArgsSdl(payments.list.input)}, sortBy: [String!], ascending: Boolean = false, filters: [Filter!]): PaginatedPayments!
    "Expenses, as payments (${permissionsOf(expenses.list)})."
    expenses(${pageArgsSdl(expenses.list.input)}, sortBy: [String!], ascending: Boolean = false, filters: [Filter!]): PaginatedExpenses!
    "An account's ledger entries (${permissionsOf(transactions.list)}). Filters: date (eq, gte, lte), type (eq)."
    transactions(${argumentsSdl(transactions.list.input, "transactions", { omit: ["query"] })}, ${pageArgsSdl(transactionsQuery)}, ascending: Boolean = false, filters: [Filter!]): PaginatedTransactions!
    "The day the books are closed through (${permissionsOf(periods.get)}), as ${routeOf(periods.get)}."
    closedPeriod: ClosedPeriod!
  }

  type Mutation {
    """
    Records money received (${permissionsOf(payments.create)}): the payment, its ledger entry and the balance, in one
    transaction. idempotencyKey (or the Idempotency-Key header): one key per intent; sent again with the same
    input within 24 hours it answers the first payment and posts nothing; with other input, BUSINESS_RULE
    idempotency.key_reused.
    """
    createPayment(input: DocumentInput!${idempotencyArgSdl(payments.create)}): Payment!
    "Records money paid out (${permissionsOf(expenses.create)}); refused with BUSINESS_RULE when the balance would go below zero. idempotencyKey as for createPayment."
    recordExpense(input: DocumentInput!${idempotencyArgSdl(expenses.create)}): Expense!
    """
    Closes the books through lockDate (${permissionsOf(periods.set)}), as ${routeOf(periods.set)}: nothing dated on
    or before it is created, changed, reversed or deleted; null opens every period again. Not after today; audited.
    """
    setClosedPeriod(${argumentsSdl(periods.set.input, "setClosedPeriod")}): ClosedPeriod!
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
    values: enumValuesOf(fieldOf(transactionItem, "type"), "Transaction.type"),
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
  offset: args.offset ?? undefined,
  limit: args.limit ?? undefined,
  ...(args.sortBy ? { sortBy: parseSort(DOCUMENT_SORTS, args.sortBy, "asc").map((each) => each.field) } : {}),
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
        const page = await runOperation(accounts.list, context.services.finance, context, {
          offset: args.offset ?? undefined,
          limit: args.limit ?? undefined,
          sortBy: args.sortBy ?? undefined,
          order: args.ascending === false ? "desc" : "asc",
          ...(args.search ? { search: args.search } : {}),
          ...(args.currency ? { currency: args.currency } : {}),
        });
        return { data: page.items, total: page.total };
      },
      payments: async (_: unknown, args: ListArgs, context: GraphqlContext) => {
        const page = await runOperation(
          payments.list,
          context.services.finance,
          context,
          documentQuery(args),
        );
        return { data: page.items, total: page.total };
      },
      expenses: async (_: unknown, args: ListArgs, context: GraphqlContext) => {
        const page = await runOperation(
          expenses.list,
          context.services.finance,
          context,
          documentQuery(args),
        );
        return { data: page.items, total: page.total };
      },
      transactions: async (_: unknown, args: ListArgs & { accountId: string }, context: GraphqlContext) => {
        const query = {
          offset: args.offset ?? undefined,
          limit: args.limit ?? undefined,
          order: args.ascending ? "asc" : "desc",
          ...toQueryFields(parseFilters(TRANSACTION_FILTERS, args.filters)),
        };
        const page = await runOperation(transactions.list, context.services.finance, context, {
          accountId: args.accountId,
          query,
        });
        return { data: page.items, total: page.total };
      },
      closedPeriod: (_: unknown, _args: unknown, context: GraphqlContext) =>
        runOperation(periods.get, context.services.finance, context, undefined),
    },
    Mutation: {
      createPayment: (_: unknown, args: PostingArgs, context: GraphqlContext) =>
        runOperation(
          payments.create,
          context.services.finance,
          context,
          withoutNulls(args.input),
          args.idempotencyKey,
        ),
      recordExpense: (_: unknown, args: PostingArgs, context: GraphqlContext) =>
        runOperation(
          expenses.create,
          context.services.finance,
          context,
          withoutNulls(args.input),
          args.idempotencyKey,
        ),
      setClosedPeriod: (_: unknown, args: Record<string, unknown>, context: GraphqlContext) =>
        runOperation(periods.set, context.services.finance, context, args),
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
