import { createRecordReads } from "@hisob/crud";
import { audit, type Db, diffFields, isUniqueViolation, type Outbox, type Tx } from "@hisob/db";
import {
  AppError,
  type Clock,
  newId,
  type Page,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import { normalizeQuantity, toIsoDate } from "@hisob/kernel/schema";
import { lockSku } from "@hisob/warehouse/sku-lock";
import { currencyNotSelected, rethrowUnknownReference } from "../finance-errors";
import { inventoryRecord, inventoryRepository as repository } from "./inventory.repository";
import {
  type TCreateInventoryItemInput,
  type TInventoryItemDto,
  type TListInventoryQuery,
  type TUpdateInventoryItemInput,
  ZCreateInventoryItemInput,
  ZListInventoryQuery,
  ZUpdateInventoryItemInput,
} from "./inventory.schema";
import { createInventoryMovementsService, itemNotFound, type Movement } from "./inventory-movements.service";

/**
 * One stock truth (README): goods the warehouse keeps as a product are counted only there. A SKU the
 * warehouse already has is refused here, as the warehouse refuses a SKU finance counts; both sides take
 * the same (tenant, SKU) lock first, so a race between them cannot let both through.
 */
const notKeptInWarehouse = async (tx: Tx, tenantId: string, sku: string) => {
  await lockSku(tx, tenantId, sku);
  if (await repository.keptInWarehouse(tx, tenantId, sku)) {
    throw new AppError("CONFLICT", {
      reason: "finance.inventory_sku_in_warehouse",
      message: `The warehouse keeps "${sku}" as a product with its own stock; count it there, not as an inventory item`,
    });
  }
};

/** A duplicate SKU, or a currency deselected meanwhile (its tenant-scoped foreign key). */
const rethrowItemConflict = (error: unknown): never => {
  if (isUniqueViolation(error)) {
    throw new AppError("CONFLICT", {
      reason: "finance.inventory_sku_taken",
      message: "An item with this SKU already exists",
    });
  }
  return rethrowUnknownReference("currency")(error);
};

/** Inventory items (this file) and their movements (inventory-movements.service.ts), as one service. */
export const createInventoryService = (deps: { db: Db; outbox: Outbox; clock?: Clock }) => {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;
  const { move, ...movements } = createInventoryMovementsService({ ...deps, clock });
  const reads = createRecordReads(inventoryRecord, deps);

  return {
    /** The list's own query (named filters, one sort field) parsed here, then the building block's list. */
    list: async (ctx: TenantContext, rawQuery: TListInventoryQuery): Promise<Page<TInventoryItemDto>> => {
      requirePermission(ctx, "inventory:read:all");
      return reads.list(ctx, parseInput(ZListInventoryQuery, rawQuery));
    },
    get: reads.get,
    /** Batch read for per-request loaders (GraphQL). */
    findByIds: reads.findByIds,

    /** An opening quantity above zero is the item's first movement (an adjustment dated today). */
    create: async (ctx: TenantContext, raw: TCreateInventoryItemInput): Promise<TInventoryItemDto> => {
      requirePermission(ctx, "inventory:create:all");
      const input = parseInput(ZCreateInventoryItemInput, raw);
      const { tenantId } = ctx;
      return db
        .withTenant(tenantId, async (tx) => {
          if (!(await repository.currencySelected(tx, tenantId, input.currency))) throw currencyNotSelected();
          await notKeptInWarehouse(tx, tenantId, input.sku);
          const now = clock.now();
          const id = newId();
          await repository.insert(tx, {
            id,
            tenantId,
            name: input.name,
            sku: input.sku,
            unit: input.unit,
            quantity: 0,
            unitPrice: BigInt(input.unitPrice),
            currencyCode: input.currency,
            description: input.description,
            createdAt: now,
            updatedAt: now,
          });
          const created = await repository.findById(tx, tenantId, id);
          if (!created) throw itemNotFound();
          await audit(tx, ctx, "inventory_item", id, "create", { after: created });
          if (normalizeQuantity(input.quantity) !== "0") {
            const opening: Movement = {
              type: "adjustment",
              change: input.quantity,
              date: toIsoDate(now),
              comment: "",
            };
            return (await move(tx, ctx, id, opening)).item;
          }
          return created;
        })
        .catch(rethrowItemConflict);
    },

    update: async (
      ctx: TenantContext,
      id: string,
      raw: TUpdateInventoryItemInput,
    ): Promise<TInventoryItemDto> => {
      requirePermission(ctx, "inventory:update:all");
      const input = parseInput(ZUpdateInventoryItemInput, raw);
      const { tenantId } = ctx;
      return db
        .withTenant(tenantId, async (tx) => {
          if (input.currency && !(await repository.currencySelected(tx, tenantId, input.currency)))
            throw currencyNotSelected();
          if (input.sku !== undefined) await notKeptInWarehouse(tx, tenantId, input.sku);
          const before = await repository.findById(tx, tenantId, id);
          if (!before) throw itemNotFound();
          const updated = await repository.update(tx, tenantId, id, {
            name: input.name,
            sku: input.sku,
            unit: input.unit,
            unitPrice: input.unitPrice === undefined ? undefined : BigInt(input.unitPrice),
            currencyCode: input.currency,
            description: input.description,
            updatedAt: clock.now(),
          });
          if (!updated) throw itemNotFound();
          const item = await repository.findById(tx, tenantId, id);
          if (!item) throw itemNotFound();
          await audit(tx, ctx, "inventory_item", id, "update", diffFields(before, item));
          return item;
        })
        .catch(rethrowItemConflict);
    },

    /** Only an item with nothing in stock; its movement history goes with it. */
    delete: async (ctx: TenantContext, id: string): Promise<void> => {
      requirePermission(ctx, "inventory:delete:all");
      const { tenantId } = ctx;
      await db.withTenant(tenantId, async (tx) => {
        const before = await repository.findById(tx, tenantId, id);
        // Conditional on the quantity: a receipt committed meanwhile makes this delete nothing.
        if (before && (await repository.deleteIfEmpty(tx, tenantId, id))) {
          await audit(tx, ctx, "inventory_item", before.id, "delete", { before });
          return;
        }
        if (!(await repository.exists(tx, tenantId, id))) throw itemNotFound();
        throw new AppError("CONFLICT", {
          reason: "finance.inventory_in_stock",
          message: "The item is still in stock; issue or adjust it to zero before deleting it",
        });
      });
    },

    ...movements,
  };
};

export type InventoryService = ReturnType<typeof createInventoryService>;
