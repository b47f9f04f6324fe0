import {
  ZAccountTransactionDto,
  ZCreateMoneyAccountInput,
  ZExchangeInput,
  ZListAccountTransactionsQuery,
  ZListMoneyAccountsQuery,
  ZMoneyAccountDto,
  ZOpeningBalanceDto,
  ZReconcileReport,
  ZSetOpeningBalanceInput,
  ZTransactionDto,
  ZTransferInput,
  ZUpdateMoneyAccountInput,
} from "@hisob/finance";
import { ZPage } from "@hisob/kernel";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppServices } from "../app-services";
import { ctxOf } from "../http/auth-context";

const ZIdParams = z.object({ id: z.uuid() });
const tags = ["finance: accounts"];

/** Money accounts, their ledger, transfers, exchanges and the reconcile check. */
export const financeAccountsRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (
  app,
  { services },
) => {
  const { accounts, transfers, reconcile, openingBalances } = services.finance;

  app.get(
    "/finance/accounts/:id/opening-balance",
    {
      schema: {
        tags,
        summary: "The account's opening balance: what it held when its books moved here (accounts:read:all)",
        params: ZIdParams,
        response: { 200: ZOpeningBalanceDto },
      },
    },
    (request) => openingBalances.get(ctxOf(request), request.params.id),
  );

  app.put(
    "/finance/accounts/:id/opening-balance",
    {
      schema: {
        tags,
        summary:
          "Set, change or (amount 0) remove the opening balance, while nothing else is posted to the account (accounts:update:all)",
        params: ZIdParams,
        body: ZSetOpeningBalanceInput,
        response: { 200: ZOpeningBalanceDto, 204: z.null().describe("Removed") },
      },
    },
    async (request, reply) => {
      const opening = await openingBalances.set(ctxOf(request), request.params.id, request.body);
      return opening ? opening : reply.code(204).send(null);
    },
  );

  app.get(
    "/finance/accounts",
    {
      schema: {
        tags,
        summary: "List money accounts (accounts:read:all)",
        querystring: ZListMoneyAccountsQuery,
        response: { 200: ZPage(ZMoneyAccountDto) },
      },
    },
    (request) => accounts.list(ctxOf(request), request.query),
  );

  app.post(
    "/finance/accounts",
    {
      schema: {
        tags,
        summary: "Create a money account in one of the organization's currencies (accounts:create:all)",
        body: ZCreateMoneyAccountInput,
        response: { 201: ZMoneyAccountDto },
      },
    },
    async (request, reply) => reply.code(201).send(await accounts.create(ctxOf(request), request.body)),
  );

  app.get(
    "/finance/accounts/:id",
    {
      schema: {
        tags,
        summary: "Get a money account with its balance (accounts:read:all)",
        params: ZIdParams,
        response: { 200: ZMoneyAccountDto },
      },
    },
    (request) => accounts.get(ctxOf(request), request.params.id),
  );

  app.put(
    "/finance/accounts/:id",
    {
      schema: {
        tags,
        summary: "Rename or describe an account, or change its overdraft rule (accounts:update:all)",
        params: ZIdParams,
        body: ZUpdateMoneyAccountInput,
        response: { 200: ZMoneyAccountDto },
      },
    },
    (request) => accounts.update(ctxOf(request), request.params.id, request.body),
  );

  app.delete(
    "/finance/accounts/:id",
    {
      schema: {
        tags,
        summary: "Delete an account nothing was posted to (accounts:delete:all)",
        params: ZIdParams,
        response: { 204: z.null().describe("Deleted") },
      },
    },
    async (request, reply) => {
      await accounts.delete(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/finance/accounts/:id/transactions",
    {
      schema: {
        tags,
        summary: "The account's transactions, newest first by default (accounts:read:all)",
        params: ZIdParams,
        querystring: ZListAccountTransactionsQuery,
        response: { 200: ZPage(ZAccountTransactionDto) },
      },
    },
    (request) => accounts.transactions(ctxOf(request), request.params.id, request.query),
  );

  app.post(
    "/finance/transfers",
    {
      schema: {
        tags,
        summary: "Move money between two accounts of one currency (transfers:create:all)",
        body: ZTransferInput,
        response: { 201: ZTransactionDto },
      },
    },
    async (request, reply) => reply.code(201).send(await transfers.transfer(ctxOf(request), request.body)),
  );

  app.post(
    "/finance/exchanges",
    {
      schema: {
        tags,
        summary:
          "Exchange money between accounts of different currencies; the destination receives trunc(amount × rate) (exchanges:create:all)",
        body: ZExchangeInput,
        response: { 201: ZTransactionDto },
      },
    },
    async (request, reply) => reply.code(201).send(await transfers.exchange(ctxOf(request), request.body)),
  );

  app.get(
    "/finance/reconcile",
    {
      schema: {
        tags,
        summary: "Recompute every balance from its transactions and list any drift (accounts:reconcile:all)",
        response: { 200: ZReconcileReport },
      },
    },
    (request) => reconcile.reconcile(ctxOf(request)),
  );
};
