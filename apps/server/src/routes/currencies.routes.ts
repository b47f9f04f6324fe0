import {
  type CoreServices,
  ZCreateCurrencyInput,
  ZCurrencyDto,
  ZSelectCurrenciesInput,
  ZUpdateCurrencyInput,
} from "@hisob/core";
import { ZCurrencyCode } from "@hisob/kernel";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../http/auth-context";

const tags = ["currencies"];

/** The global currency list and the caller's tenant's selection. */
export const currenciesRoutes: FastifyPluginAsyncZod<{ services: CoreServices }> = async (
  app,
  { services },
) => {
  const { currencies } = services;
  app.get(
    "/currencies",
    {
      schema: {
        tags,
        summary: "The global currency list (any signed-in user)",
        response: { 200: z.array(ZCurrencyDto) },
      },
    },
    (request) => currencies.listAll(ctxOf(request)),
  );
  app.post(
    "/currencies",
    {
      schema: {
        tags,
        summary: "Add a currency (currencies:create:all, platform admin)",
        body: ZCreateCurrencyInput,
        response: { 201: ZCurrencyDto },
      },
    },
    async (request, reply) => reply.code(201).send(await currencies.create(ctxOf(request), request.body)),
  );
  app.put(
    "/currencies/:code",
    {
      schema: {
        tags,
        summary: "Change or deactivate a currency (currencies:update:all, platform admin)",
        params: z.object({ code: ZCurrencyCode }),
        body: ZUpdateCurrencyInput,
        response: { 200: ZCurrencyDto },
      },
    },
    (request) => currencies.update(ctxOf(request), request.params.code, request.body),
  );
  app.get(
    "/tenant/currencies",
    {
      schema: {
        tags,
        summary: "The currencies the caller's tenant uses (any signed-in user)",
        response: { 200: z.array(ZCurrencyDto) },
      },
    },
    (request) => currencies.listSelected(ctxOf(request)),
  );
  app.put(
    "/tenant/currencies",
    {
      schema: {
        tags,
        summary: "Replace the tenant's currency selection (currencies:select:all)",
        body: ZSelectCurrenciesInput,
        response: { 200: z.array(ZCurrencyDto) },
      },
    },
    (request) => currencies.setSelected(ctxOf(request), request.body),
  );
};
