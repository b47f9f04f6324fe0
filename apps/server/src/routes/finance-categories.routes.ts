import {
  ZCreateCategoryInput,
  ZExpenseCategoryDto,
  ZListCategoriesQuery,
  ZPaymentCategoryDto,
  ZUpdateCategoryInput,
} from "@hisob/finance";
import { ZPage } from "@hisob/kernel";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppServices } from "../app-services";
import { ctxOf } from "../http/auth-context";

/** "an expense", "a payment": the article the noun takes in a summary. */
const withArticle = (noun: string) => `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`;

const ZIdParams = z.object({ id: z.uuid() });

type CategoryRoutes = {
  path: "/finance/payment-categories" | "/finance/expense-categories";
  /** "payment category" / "expense category" in summaries. */
  noun: string;
  dto: typeof ZPaymentCategoryDto;
  service: AppServices["finance"]["paymentCategories"];
};

/** Payment and expense categories: the same five routes over one service shape. */
const categoryRoutes: FastifyPluginAsyncZod<CategoryRoutes> = async (app, { path, noun, dto, service }) => {
  const tags = [`finance: ${noun.replace(" category", "")} categories`];

  app.get(
    path,
    {
      schema: {
        tags,
        summary: `List ${noun}s, e.g. the top level (root=true) or one category's children (categories:read:all)`,
        querystring: ZListCategoriesQuery,
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
        summary: `Create ${withArticle(noun)}, top-level or under a parent (categories:create:all)`,
        body: ZCreateCategoryInput,
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
        summary: `Get ${withArticle(noun)} (categories:read:all)`,
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
        summary: `Rename, describe or move ${withArticle(noun)}; it can never become its own ancestor (categories:update:all)`,
        params: ZIdParams,
        body: ZUpdateCategoryInput,
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
        summary: `Delete ${withArticle(noun)} without subcategories that nothing uses (categories:delete:all)`,
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

export const financeCategoriesRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (
  app,
  { services },
) => {
  await app.register(categoryRoutes, {
    path: "/finance/payment-categories",
    noun: "payment category",
    dto: ZPaymentCategoryDto,
    service: services.finance.paymentCategories,
  });
  await app.register(categoryRoutes, {
    path: "/finance/expense-categories",
    noun: "expense category",
    dto: ZExpenseCategoryDto,
    service: services.finance.expenseCategories,
  });
};
