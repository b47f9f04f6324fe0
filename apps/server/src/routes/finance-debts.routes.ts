import {
  ZCreateDebtInput,
  ZDebtDetailDto,
  ZDebtDto,
  ZDebtSettlementResult,
  ZListDebtsQuery,
  ZSettleDebtInput,
  ZUpdateDebtInput,
  ZWriteOffDebtInput,
} from "@hisob/finance";
import { ZPage } from "@hisob/kernel";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppServices } from "../app-services";
import { ctxOf } from "../http/auth-context";

const ZIdParams = z.object({ id: z.uuid() });
const ZSettlementParams = z.object({ id: z.uuid(), settlementId: z.uuid() });
const tags = ["finance: debts"];

/** Debts owed to (receivable) or by (payable) the organization, their settlements and write-offs. */
export const financeDebtsRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (
  app,
  { services },
) => {
  const { debts } = services.finance;

  app.get(
    "/finance/debts",
    {
      schema: {
        tags,
        summary: "List debts by status, kind, counterparty, currency or due date (debts:read:all)",
        querystring: ZListDebtsQuery,
        response: { 200: ZPage(ZDebtDto) },
      },
    },
    (request) => debts.list(ctxOf(request), request.query),
  );

  app.post(
    "/finance/debts",
    {
      schema: {
        tags,
        summary: "Record a debt; it starts pending with everything outstanding (debts:create:all)",
        body: ZCreateDebtInput,
        response: { 201: ZDebtDetailDto },
      },
    },
    async (request, reply) => reply.code(201).send(await debts.create(ctxOf(request), request.body)),
  );

  app.get(
    "/finance/debts/:id",
    {
      schema: {
        tags,
        summary: "Get a debt with its settlements (debts:read:all)",
        params: ZIdParams,
        response: { 200: ZDebtDetailDto },
      },
    },
    (request) => debts.get(ctxOf(request), request.params.id),
  );

  app.put(
    "/finance/debts/:id",
    {
      schema: {
        tags,
        summary:
          "Change a debt: anything while pending; amount (above what is settled), due date and description once partly settled; due date and description when closed (debts:update:all)",
        params: ZIdParams,
        body: ZUpdateDebtInput,
        response: { 200: ZDebtDetailDto },
      },
    },
    (request) => debts.update(ctxOf(request), request.params.id, request.body),
  );

  app.delete(
    "/finance/debts/:id",
    {
      schema: {
        tags,
        summary: "Delete a pending debt (nothing settled, not written off) (debts:delete:all)",
        params: ZIdParams,
        response: { 204: z.null().describe("Deleted") },
      },
    },
    async (request, reply) => {
      await debts.delete(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/finance/debts/:id/settle",
    {
      schema: {
        tags,
        summary:
          "Settle all or part of a debt from an account in its currency: a receivable posts a payment into the account, a payable an expense out of it, in the same transaction (debts:update:all and payments:create:all or expenses:create:all)",
        params: ZIdParams,
        body: ZSettleDebtInput,
        response: { 201: ZDebtSettlementResult },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await debts.settle(ctxOf(request), request.params.id, request.body)),
  );

  app.delete(
    "/finance/debts/:id/settlements/:settlementId",
    {
      schema: {
        tags,
        summary:
          "Reverse a settlement: its payment or expense is deleted and the amount is outstanding again (debts:update:all and payments:delete:all or expenses:delete:all)",
        params: ZSettlementParams,
        response: { 200: ZDebtDetailDto },
      },
    },
    (request) => debts.reverseSettlement(ctxOf(request), request.params.id, request.params.settlementId),
  );

  app.post(
    "/finance/debts/:id/write-off",
    {
      schema: {
        tags,
        summary: "Write off what is outstanding, recording who and why (debts:update:all)",
        params: ZIdParams,
        body: ZWriteOffDebtInput,
        response: { 200: ZDebtDetailDto },
      },
    },
    (request) => debts.writeOff(ctxOf(request), request.params.id, request.body),
  );
};
