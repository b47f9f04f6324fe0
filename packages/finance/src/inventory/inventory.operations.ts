import { ZPage } from "@hisob/kernel";
import { z } from "zod";
import { crudOperations, op, withId } from "../operations";
import {
  ZCreateInventoryItemInput,
  ZCreateInventoryMovementInput,
  ZInventoryItemDto,
  ZInventoryMovementDto,
  ZInventoryMovementResult,
  ZListInventoryMovementsQuery,
  ZListInventoryQuery,
  ZUpdateInventoryItemInput,
} from "./inventory.schema";

const tag = "finance: inventory";
const path = "/finance/inventory";

/** Inventory items and their movements (receipts, issues, adjustments). */
export const inventoryOperations = {
  ...crudOperations({
    path,
    tag,
    service: (services) => services.inventory,
    schemas: {
      list: ZListInventoryQuery,
      listItem: ZInventoryItemDto,
      create: ZCreateInventoryItemInput,
      update: ZUpdateInventoryItemInput,
      item: ZInventoryItemDto,
    },
    access: {
      list: "inventory:read:all",
      get: "inventory:read:all",
      create: "inventory:create:all",
      update: "inventory:update:all",
      delete: "inventory:delete:all",
    },
    summaries: {
      list: "List inventory items",
      get: "Get an inventory item with its quantity",
      create: "Create an inventory item, optionally with an opening quantity",
      update: "Change an item's name, SKU, unit, price or description; quantity moves only by movements",
      delete: "Delete an item that is out of stock, with its movements",
    },
  }),
  recordMovement: op.mutation({
    // One movement per intent (docs/decisions/0086-setup-idempotent-creates-sign-out-reasons.md).
    idempotent: true,
    http: { method: "POST", path: `${path}/:id/movements`, status: 201, rest: "data" },
    input: withId(ZCreateInventoryMovementInput),
    output: ZInventoryMovementResult,
    access: { requires: ["inventory:move:all"] },
    summary: "Record a receipt, an issue or an adjustment; the quantity never goes below zero",
    tag,
    call: (services, ctx, input) => services.inventory.recordMovement(ctx, input.id, input.data),
  }),
  movements: op.query({
    http: { method: "GET", path: `${path}/:id/movements`, status: 200, rest: "query" },
    input: z.object({ id: z.uuid(), query: ZListInventoryMovementsQuery.optional() }),
    output: ZPage(ZInventoryMovementDto),
    access: { requires: ["inventory:read:all"] },
    summary: "The item's movements in the order they were applied, newest first by default",
    tag,
    call: (services, ctx, input) => services.inventory.movements(ctx, input.id, input.query ?? {}),
  }),
};
