import {
  ZCounterpartyDto,
  ZCreateCounterpartyInput,
  ZListCounterpartiesQuery,
  ZUpdateCounterpartyInput,
} from "@hisob/finance";
import { ZPage } from "@hisob/kernel";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppServices } from "../app-services";
import { ctxOf } from "../http/auth-context";

const ZIdParams = z.object({ id: z.uuid() });
const tags = ["finance: counterparties"];

/** Customers and suppliers. */
export const financeCounterpartiesRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (
  app,
  { services },
) => {
  const { counterparties } = services.finance;

  app.get(
    "/finance/counterparties",
    {
      schema: {
        tags,
        summary: "List counterparties (counterparties:read:all)",
        querystring: ZListCounterpartiesQuery,
        response: { 200: ZPage(ZCounterpartyDto) },
      },
    },
    (request) => counterparties.list(ctxOf(request), request.query),
  );

  app.post(
    "/finance/counterparties",
    {
      schema: {
        tags,
        summary: "Create a counterparty (counterparties:create:all)",
        body: ZCreateCounterpartyInput,
        response: { 201: ZCounterpartyDto },
      },
    },
    async (request, reply) => reply.code(201).send(await counterparties.create(ctxOf(request), request.body)),
  );

  app.get(
    "/finance/counterparties/:id",
    {
      schema: {
        tags,
        summary: "Get a counterparty (counterparties:read:all)",
        params: ZIdParams,
        response: { 200: ZCounterpartyDto },
      },
    },
    (request) => counterparties.get(ctxOf(request), request.params.id),
  );

  app.put(
    "/finance/counterparties/:id",
    {
      schema: {
        tags,
        summary: "Change a counterparty's details (counterparties:update:all)",
        params: ZIdParams,
        body: ZUpdateCounterpartyInput,
        response: { 200: ZCounterpartyDto },
      },
    },
    (request) => counterparties.update(ctxOf(request), request.params.id, request.body),
  );

  app.delete(
    "/finance/counterparties/:id",
    {
      schema: {
        tags,
        summary: "Delete a counterparty no payment, expense or debt refers to (counterparties:delete:all)",
        params: ZIdParams,
        response: { 204: z.null().describe("Deleted") },
      },
    },
    async (request, reply) => {
      await counterparties.delete(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
