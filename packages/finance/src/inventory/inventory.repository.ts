import type { RecordReadDefinition } from "@hisob/crud";
import type { Prisma, Tx } from "@hisob/db";
import { searchIn } from "@hisob/kernel";
import { dateOf, normalizeQuantity, toIsoDate } from "@hisob/kernel/schema";
import type { z } from "zod";
import {
  INVENTORY_SORT_FIELDS,
  type TInventoryItemDto,
  type TInventoryMovementDto,
  type ZListInventoryMovementsQuery,
  type ZListInventoryQuery,
} from "./inventory.schema";

/** What every read of an inventory item selects (the list, the detail, loaders and the download). */
export const itemSelect = {
  id: true,
  name: true,
  sku: true,
  unit: true,
  quantity: true,
  unitPrice: true,
  currencyCode: true,
  description: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.InventoryItemSelect;

export type InventoryItemRow = Prisma.InventoryItemGetPayload<{ select: typeof itemSelect }>;

const movementSelect = {
  id: true,
  itemId: true,
  type: true,
  quantityChange: true,
  quantityAfter: true,
  date: true,
  comment: true,
  createdBy: true,
  createdAt: true,
} satisfies Prisma.InventoryMovementSelect;

type MovementRow = Prisma.InventoryMovementGetPayload<{ select: typeof movementSelect }>;

/** Prisma's Decimal in plain notation (never exponent form), then canonical. */
const quantityText = (value: Prisma.Decimal): string => normalizeQuantity(value.toFixed());

const toItemDto = (row: InventoryItemRow): TInventoryItemDto => ({
  id: row.id,
  name: row.name,
  sku: row.sku,
  unit: row.unit,
  quantity: quantityText(row.quantity),
  unitPrice: row.unitPrice.toString(),
  currency: row.currencyCode,
  description: row.description,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const toMovementDto = (row: MovementRow): TInventoryMovementDto => ({
  id: row.id,
  itemId: row.itemId,
  type: row.type,
  quantity: quantityText(row.quantityChange),
  quantityAfter: quantityText(row.quantityAfter),
  date: toIsoDate(row.date),
  comment: row.comment,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
});

type ListQuery = z.output<typeof ZListInventoryQuery>;
type MovementsQuery = z.output<typeof ZListInventoryMovementsQuery>;

/** The list's named filters (its download uses them too); the tenant is the building block's. */
const inventoryFilters = (
  query: Pick<ListQuery, "currency" | "inStock" | "search">,
): Prisma.InventoryItemWhereInput => ({
  ...(query.currency ? { currencyCode: query.currency } : {}),
  ...(query.inStock === true ? { quantity: { gt: 0 } } : {}),
  ...(query.inStock === false ? { quantity: 0 } : {}),
  ...(query.search ? { OR: searchIn(["name", "sku", "description"], query.search) } : {}),
});

/**
 * Inventory items' reads on the record building block (`@hisob/crud`): the list with its named
 * filters and count, one item, the batch read for loaders. Their writes stay in inventory.service:
 * a SKU is locked against the warehouse's, an opening quantity is a movement, and only an item out
 * of stock is deleted.
 */
export const inventoryRecord: RecordReadDefinition<InventoryItemRow, TInventoryItemDto> = {
  missing: { reason: "finance.inventory_item_not_found", message: "Inventory item not found" },
  permissions: { read: "inventory:read:all" },
  model: (tx) => tx.inventoryItem,
  select: itemSelect,
  toDto: toItemDto,
  sortFields: INVENTORY_SORT_FIELDS,
  filters: {},
  listWhere: (query) => inventoryFilters(query),
};

/** One movement as recorded under the item's row lock. */
export type MovementRecord = {
  id: string;
  tenantId: string;
  itemId: string;
  type: "receipt" | "issue" | "adjustment";
  quantityChange: string;
  quantityAfter: string;
  date: string;
  comment: string;
  createdBy: string;
  createdAt: Date;
};

/** Inventory items and their movements of one tenant; every query carries the tenant (wall 1; RLS is wall 2). */
export const inventoryRepository = {
  findById: async (tx: Tx, tenantId: string, id: string): Promise<TInventoryItemDto | null> => {
    const row = await tx.inventoryItem.findFirst({ where: { tenantId, id }, select: itemSelect });
    return row ? toItemDto(row) : null;
  },

  exists: async (tx: Tx, tenantId: string, id: string): Promise<boolean> =>
    (await tx.inventoryItem.count({ where: { tenantId, id } })) > 0,

  /** Is the currency one of the tenant's selection? */
  currencySelected: async (tx: Tx, tenantId: string, currency: string): Promise<boolean> =>
    (await tx.tenantCurrency.count({ where: { tenantId, currencyCode: currency } })) > 0,

  /** Does the warehouse keep this SKU as a product (the caller holds the SKU's lock)? */
  keptInWarehouse: async (tx: Tx, tenantId: string, sku: string): Promise<boolean> =>
    (await tx.warehouseProduct.count({ where: { tenantId, sku } })) > 0,

  insert: async (tx: Tx, data: Prisma.InventoryItemUncheckedCreateInput): Promise<void> => {
    await tx.inventoryItem.create({ data, select: { id: true } });
  },

  /** Undefined fields stay as they are; false when there is no such item. */
  update: async (
    tx: Tx,
    tenantId: string,
    id: string,
    data: Prisma.InventoryItemUncheckedUpdateManyInput,
  ): Promise<boolean> => (await tx.inventoryItem.updateMany({ where: { tenantId, id }, data })).count > 0,

  /** Deletes the item only while nothing is in stock (conditional, so a receipt committed meanwhile wins). */
  deleteIfEmpty: async (tx: Tx, tenantId: string, id: string): Promise<boolean> =>
    (await tx.inventoryItem.deleteMany({ where: { tenantId, id, quantity: 0 } })).count > 0,

  /**
   * Adds `change` to the item's quantity with one conditional UPDATE that takes the item's row lock;
   * the quantity after it, or null when there is no such item or it would go below zero.
   */
  addQuantity: async (
    tx: Tx,
    tenantId: string,
    id: string,
    change: string,
    now: Date,
  ): Promise<string | null> => {
    const rows = await tx.$queryRaw<{ quantity: string }[]>`
        UPDATE inventory_items
           SET quantity = quantity + ${change}::numeric, updated_at = ${now}
         WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid
           AND quantity + ${change}::numeric >= 0
     RETURNING quantity::text`;
    return rows[0]?.quantity ?? null;
  },

  insertMovement: async (tx: Tx, movement: MovementRecord): Promise<TInventoryMovementDto> =>
    toMovementDto(
      await tx.inventoryMovement.create({
        data: { ...movement, date: dateOf(movement.date) },
        select: movementSelect,
      }),
    ),

  listMovements: async (tx: Tx, tenantId: string, itemId: string, query: MovementsQuery) => {
    const where: Prisma.InventoryMovementWhereInput = {
      tenantId,
      itemId,
      ...(query.type ? { type: query.type } : {}),
      ...(query.from || query.to
        ? {
            date: {
              ...(query.from ? { gte: dateOf(query.from) } : {}),
              ...(query.to ? { lte: dateOf(query.to) } : {}),
            },
          }
        : {}),
    };
    const [rows, total] = await Promise.all([
      tx.inventoryMovement.findMany({
        where,
        select: movementSelect,
        // Ids are UUIDv7 minted while the item's row lock is held: the order movements were applied.
        orderBy: { id: query.order },
        skip: query.offset,
        take: query.limit,
      }),
      tx.inventoryMovement.count({ where }),
    ]);
    return { items: rows.map(toMovementDto), total };
  },
};
