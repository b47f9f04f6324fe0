import {
  ZCreateDocumentInput,
  ZExpenseDto,
  ZListDocumentsQuery,
  ZPaymentDto,
  ZUpdateDocumentInput,
} from "@hisob/finance";
import { ZPage } from "@hisob/kernel";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppServices } from "../app-services";
import { ctxOf } from "../http/auth-context";

/** "an expense", "a payment": the article the noun takes in a summary. */
const withArticle = (noun: string) => `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`;

const ZIdParams = z.object({ id: z.uuid() });

type DocumentRoutes = {
  path: "/finance/payments" | "/finance/expenses";
  /** "payment" / "expense" in summaries. */
  noun: string;
  resource: "payments" | "expenses";
  dto: typeof ZPaymentDto;
  service: AppServices["finance"]["payments"];
};

/** Payments (money in) and expenses (money out): the same five routes over one service shape. */
const documentRoutes: FastifyPluginAsyncZod<DocumentRoutes> = async (
  app,
  { path, noun, resource, dto, service },
) => {
  const tags = [`finance: ${resource}`];

  app.get(
    path,
    {
      schema: {
        tags,
        summary: `List ${resource} (${resource}:read:all, or :own for those one created)`,
        querystring: ZListDocumentsQuery,
        response: { 200: ZPage(dto) },
      },
    },
    (request) => service.list(ctxOf(request), request.query),
  );

  app.post(
    path,
    {
      schema: {
        tags,
        summary: `Create ${withArticle(noun)}: the ${noun}, its transaction and the account balance in one database transaction (${resource}:create:all)`,
        body: ZCreateDocumentInput,
        response: { 201: dto },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(ctxOf(request), request.body)),
  );

  app.get(
    `${path}/:id`,
    {
      schema: {
        tags,
        summary: `Get ${withArticle(noun)} (${resource}:read:all, or :own)`,
        params: ZIdParams,
        response: { 200: dto },
      },
    },
    (request) => service.get(ctxOf(request), request.params.id),
  );

  app.put(
    `${path}/:id`,
    {
      schema: {
        tags,
        summary: `Change ${withArticle(noun)}; balances follow in the same transaction (${resource}:update:all)`,
        params: ZIdParams,
        body: ZUpdateDocumentInput,
        response: { 200: dto },
      },
    },
    (request) => service.update(ctxOf(request), request.params.id, request.body),
  );

  app.delete(
    `${path}/:id`,
    {
      schema: {
        tags,
        summary: `Delete ${withArticle(noun)} and its transaction, reversing its effect on the balance (${resource}:delete:all)`,
        params: ZIdParams,
        response: { 204: z.null().describe("Deleted") },
      },
    },
    async (request, reply) => {
      await service.delete(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};

export const financeDocumentsRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (
  app,
  { services },
) => {
  const { payments, expenses } = services.finance;
  await app.register(documentRoutes, {
    path: "/finance/payments",
    noun: "payment",
    resource: "payments",
    dto: ZPaymentDto,
    service: payments,
  });
  await app.register(documentRoutes, {
    path: "/finance/expenses",
    noun: "expense",
    resource: "expenses",
    dto: ZExpenseDto,
    service: expenses,
  });
};
