import { ZPage } from "@hisob/kernel";
import { z } from "zod";
import { ZAccountTransactionDto, ZListAccountTransactionsQuery } from "../ledger/ledger.schema";
import { crudOperations, op, withId } from "../operations";
import {
  ZCreateMoneyAccountInput,
  ZListMoneyAccountsQuery,
  ZMoneyAccountDto,
  ZUpdateMoneyAccountInput,
} from "./accounts.schema";
import { ZOpeningBalanceDto, ZSetOpeningBalanceInput } from "./opening-balance.schema";

const tag = "finance: accounts";

const crud = crudOperations({
  path: "/finance/accounts",
  tag,
  service: (services) => services.accounts,
  schemas: {
    list: ZListMoneyAccountsQuery,
    listItem: ZMoneyAccountDto,
    create: ZCreateMoneyAccountInput,
    update: ZUpdateMoneyAccountInput,
    item: ZMoneyAccountDto,
  },
  access: {
    list: "accounts:read:all",
    get: "accounts:read:all",
    create: "accounts:create:all",
    update: "accounts:update:all",
    delete: "accounts:delete:all",
  },
  summaries: {
    list: "List money accounts",
    get: "Get a money account with its balance",
    create: "Create a money account in one of the organization's currencies",
    update: "Rename or describe an account, or change its overdraft rule",
    delete: "Delete an account nothing was posted to",
  },
  // One account per intent: a double click or a retry does not open two (docs/decisions/0086-setup-idempotent-creates-sign-out-reasons.md).
  idempotentCreate: true,
});

export const accountsOperations = {
  ...crud,
  openingBalance: op.query({
    http: { method: "GET", path: "/finance/accounts/:id/opening-balance", status: 200 },
    input: z.object({ id: z.uuid() }),
    output: ZOpeningBalanceDto,
    access: { requires: ["accounts:read:all"] },
    summary: "The account's opening balance: what it held when its books moved here",
    tag,
    call: (services, ctx, input) => services.openingBalances.get(ctx, input.id),
  }),
  setOpeningBalance: op.mutation({
    http: {
      method: "PUT",
      path: "/finance/accounts/:id/opening-balance",
      status: 200,
      empty: { status: 204, description: "Removed" },
      rest: "data",
    },
    input: withId(ZSetOpeningBalanceInput),
    output: ZOpeningBalanceDto.nullable(),
    access: { requires: ["accounts:update:all"] },
    summary:
      "Set, change or (amount 0) remove the opening balance, while nothing else is posted to the account",
    tag,
    call: (services, ctx, input) => services.openingBalances.set(ctx, input.id, input.data),
  }),
};

export const transactionsOperations = {
  list: op.query({
    http: {
      method: "GET",
      path: "/finance/accounts/:id/transactions",
      status: 200,
      params: { id: "accountId" },
      rest: "query",
    },
    input: z.object({ accountId: z.uuid(), query: ZListAccountTransactionsQuery.optional() }),
    output: ZPage(ZAccountTransactionDto),
    access: { requires: ["accounts:read:all"] },
    summary: "The account's transactions, newest first by default",
    tag,
    call: (services, ctx, input) => services.accounts.transactions(ctx, input.accountId, input.query ?? {}),
  }),
};
