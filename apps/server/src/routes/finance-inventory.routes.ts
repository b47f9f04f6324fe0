import {
  ZCreateInventoryItemInput,
  ZCreateInventoryMovementInput,
  ZInventoryItemDto,
  ZInventoryMovementDto,
  ZInventoryMovementResult,
  ZListInventoryMovementsQuery,
  ZListInventoryQuery,
  ZUpdateInventoryItemInput,
} from "@hisob/finance";
import { ZPage } from "@hisob/kernel";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppServices } from "../app-services";
import { ctxOf } from "../http/auth-context";

const ZIdParams = z.object({ id: z.uuid() });
const tags = ["finance: inventory"];

/** Inventory items and their movements (receipts, issues, adjustments). */
export const financeInventoryRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (
  app,
  { services },
) => {
  const { inventory } = services.finance;

  app.get(
    "/finance/inventory",
    {
      schema: {
        tags,
        summary: "List inventory items (inventory:read:all)",
        querystring: ZListInventoryQuery,
        response: { 200: ZPage(ZInventoryItemDto) },
      },
    },
    (request) => inventory.list(ctxOf(request), request.query),
  );

  app.post(
    "/finance/inventory",
    {
      schema: {
        tags,
        summary: "Create an inventory item, optionally with an opening quantity (inventory:create:all)",
        body: ZCreateInventoryItemInput,
        response: { 201: ZInventoryItemDto },
      },
    },
    async (request, reply) => reply.code(201).send(await inventory.create(ctxOf(request), request.body)),
  );

  app.get(
    "/finance/inventory/:id",
    {
      schema: {
        tags,
        summary: "Get an inventory item with its quantity (inventory:read:all)",
        params: ZIdParams,
        response: { 200: ZInventoryItemDto },
      },
    },
    (request) => inventory.get(ctxOf(request), request.params.id),
  );

  app.put(
    "/finance/inventory/:id",
    {
      schema: {
        tags,
        summary:
          "Change an item's name, SKU, unit, price or description; quantity moves only by movements (inventory:update:all)",
        params: ZIdParams,
        body: ZUpdateInventoryItemInput,
        response: { 200: ZInventoryItemDto },
      },
    },
    (request) => inventory.update(ctxOf(request), request.params.id, request.body),
  );

  app.delete(
    "/finance/inventory/:id",
    {
      schema: {
        tags,
        summary: "Delete an item that is out of stock, with its movements (inventory:delete:all)",
        params: ZIdParams,
        response: { 204: z.null().describe("Deleted") },
      },
    },
    async (request, reply) => {
      await inventory.delete(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/finance/inventory/:id/movements",
    {
      schema: {
        tags,
        summary:
          "Record a receipt, an issue or an adjustment; the quantity never goes below zero (inventory:move:all)",
        params: ZIdParams,
        body: ZCreateInventoryMovementInput,
        response: { 201: ZInventoryMovementResult },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await inventory.recordMovement(ctxOf(request), request.params.id, request.body)),
  );

  app.get(
    "/finance/inventory/:id/movements",
    {
      schema: {
        tags,
        summary:
          "The item's movements in the order they were applied, newest first by default (inventory:read:all)",
        params: ZIdParams,
        querystring: ZListInventoryMovementsQuery,
        response: { 200: ZPage(ZInventoryMovementDto) },
      },
    },
    (request) => inventory.movements(ctxOf(request), request.params.id, request.query),
  );
};
