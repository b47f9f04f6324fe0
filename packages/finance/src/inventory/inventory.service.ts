import {
  type Db,
  isNumericOverflow,
  isUniqueViolation,
  lockSku,
  type Outbox,
  type Prisma,
  type Tx,
  violatedForeignKey,
} from "@hisob/db";
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
import type { z } from "zod";
import { dateOf, toIsoDate } from "../dates";
import { fieldError, notFound } from "../finance-errors";
import {
  type TCreateInventoryItemInput,
  type TCreateInventoryMovementInput,
  type TInventoryItemDto,
  type TInventoryMovementDto,
  type TInventoryMovementResult,
  type TListInventoryMovementsQuery,
  type TListInventoryQuery,
  type TUpdateInventoryItemInput,
  ZCreateInventoryItemInput,
  ZCreateInventoryMovementInput,
  ZListInventoryMovementsQuery,
  ZListInventoryQuery,
  ZUpdateInventoryItemInput,
} from "./inventory.schema";
import { negateQuantity, normalizeQuantity } from "./quantity";

const itemSelect = {
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

type ItemRow = Prisma.InventoryItemGetPayload<{ select: typeof itemSelect }>;

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

const toItemDto = (row: ItemRow): TInventoryItemDto => ({
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

const itemNotFound = () => notFound("finance.inventory_item_not_found", "Inventory item not found");

const currencyNotSelected = () =>
  fieldError("currency", "finance.currency_not_selected", "is not one of the organization's currencies");

/**
 * One stock truth (README): goods the warehouse keeps as a product are counted only there. A SKU the
 * warehouse already has is refused here, as the warehouse refuses a SKU finance counts; both sides take
 * the same (tenant, SKU) lock first, so a race between them cannot let both through.
 */
const notKeptInWarehouse = async (tx: Tx, tenantId: string, sku: string) => {
  await lockSku(tx, tenantId, sku);
  if ((await tx.warehouseProduct.count({ where: { tenantId, sku } })) > 0) {
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
  if (violatedForeignKey(error)?.includes("currency")) throw currencyNotSelected();
  throw error;
};

/** PostgreSQL's "numeric field overflow" (22003): a quantity beyond NUMERIC(20, 6). */
type Movement = { type: "receipt" | "issue" | "adjustment"; change: string; date: string; comment: string };

/**
 * Inventory items and their movements. A movement changes the quantity with one conditional
 * UPDATE (`quantity + change >= 0`) that takes the item's row lock: concurrent issues queue on it
 * and each sees what the previous one committed, so the quantity is exact and never negative
 * (a CHECK constraint says so too).
 */
/** The list's filters (shared with its download). */
export const inventoryWhere = (
  tenantId: string,
  query: Pick<z.output<typeof ZListInventoryQuery>, "currency" | "inStock" | "search">,
): Prisma.InventoryItemWhereInput => ({
  tenantId,
  ...(query.currency ? { currencyCode: query.currency } : {}),
  ...(query.inStock === true ? { quantity: { gt: 0 } } : {}),
  ...(query.inStock === false ? { quantity: 0 } : {}),
  ...(query.search
    ? {
        OR: (["name", "sku", "description"] as const).map((field) => ({
          [field]: { contains: query.search, mode: "insensitive" as const },
        })),
      }
    : {}),
});

export const createInventoryService = (deps: { db: Db; outbox: Outbox; clock?: Clock }) => {
  const { db, outbox } = deps;
  const clock = deps.clock ?? systemClock;

  const find = async (tx: Tx, tenantId: string, id: string): Promise<TInventoryItemDto | null> => {
    const row = await tx.inventoryItem.findFirst({ where: { tenantId, id }, select: itemSelect });
    return row ? toItemDto(row) : null;
  };

  const isSelected = async (tx: Tx, tenantId: string, currency: string) =>
    (await tx.tenantCurrency.count({ where: { tenantId, currencyCode: currency } })) > 0;

  /** Applies one movement to the item and records it; throws (rolling back) if stock would go below zero. */
  const move = async (
    tx: Tx,
    ctx: TenantContext,
    itemId: string,
    movement: Movement,
  ): Promise<TInventoryMovementResult> => {
    const { tenantId } = ctx;
    const now = clock.now();
    let rows: { quantity: string }[];
    try {
      rows = await tx.$queryRaw<{ quantity: string }[]>`
        UPDATE inventory_items
           SET quantity = quantity + ${movement.change}::numeric, updated_at = ${now}
         WHERE tenant_id = ${tenantId}::uuid AND id = ${itemId}::uuid
           AND quantity + ${movement.change}::numeric >= 0
     RETURNING quantity::text`;
    } catch (error) {
      if (isNumericOverflow(error)) {
        throw new AppError("BUSINESS_RULE", {
          reason: "finance.quantity_out_of_range",
          message: "The item's quantity would leave the range a quantity can hold",
          params: { field: "quantity" },
        });
      }
      throw error;
    }
    const after = rows[0]?.quantity;
    if (after === undefined) {
      const item = await find(tx, tenantId, itemId);
      if (!item) throw itemNotFound();
      throw new AppError("BUSINESS_RULE", {
        reason: "finance.insufficient_stock",
        message: `Not enough in stock: ${item.quantity} ${item.unit} of "${item.name}"`,
        params: { field: "quantity", available: item.quantity, unit: item.unit },
      });
    }
    const row = await tx.inventoryMovement.create({
      data: {
        // Minted under the item's row lock: ids order an item's movements as they were applied.
        id: newId(),
        tenantId,
        itemId,
        type: movement.type,
        quantityChange: movement.change,
        quantityAfter: after,
        date: dateOf(movement.date),
        comment: movement.comment,
        createdBy: ctx.actor.userId,
        createdAt: now,
      },
      select: movementSelect,
    });
    const item = await find(tx, tenantId, itemId);
    if (!item) throw itemNotFound();
    const dto = toMovementDto(row);
    await outbox.raise(tx, { type: "InventoryMoved", tenantId, payload: { movementId: dto.id, ...dto } });
    return { item, movement: dto };
  };

  return {
    list: async (ctx: TenantContext, rawQuery: TListInventoryQuery): Promise<Page<TInventoryItemDto>> => {
      requirePermission(ctx, "inventory:read:all");
      const query = parseInput(ZListInventoryQuery, rawQuery);
      const where = inventoryWhere(ctx.tenantId, query);
      const [rows, total] = await db.withTenant(ctx.tenantId, (tx) =>
        Promise.all([
          tx.inventoryItem.findMany({
            where,
            select: itemSelect,
            orderBy: [{ [query.sortBy]: query.order }, { id: query.order }],
            skip: query.offset,
            take: query.limit,
          }),
          tx.inventoryItem.count({ where }),
        ]),
      );
      return { items: rows.map(toItemDto), total, limit: query.limit, offset: query.offset };
    },

    get: async (ctx: TenantContext, id: string): Promise<TInventoryItemDto> => {
      requirePermission(ctx, "inventory:read:all");
      const item = await db.withTenant(ctx.tenantId, (tx) => find(tx, ctx.tenantId, id));
      if (!item) throw itemNotFound();
      return item;
    },

    /** An opening quantity above zero is the item's first movement (an adjustment dated today). */
    create: async (ctx: TenantContext, raw: TCreateInventoryItemInput): Promise<TInventoryItemDto> => {
      requirePermission(ctx, "inventory:create:all");
      const input = parseInput(ZCreateInventoryItemInput, raw);
      const { tenantId } = ctx;
      return db
        .withTenant(tenantId, async (tx) => {
          if (!(await isSelected(tx, tenantId, input.currency))) throw currencyNotSelected();
          await notKeptInWarehouse(tx, tenantId, input.sku);
          const now = clock.now();
          const id = newId();
          await tx.inventoryItem.create({
            data: {
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
            },
            select: { id: true },
          });
          if (normalizeQuantity(input.quantity) !== "0") {
            return (
              await move(tx, ctx, id, {
                type: "adjustment",
                change: input.quantity,
                date: toIsoDate(now),
                comment: "",
              })
            ).item;
          }
          const item = await find(tx, tenantId, id);
          if (!item) throw itemNotFound();
          return item;
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
          if (input.currency && !(await isSelected(tx, tenantId, input.currency)))
            throw currencyNotSelected();
          if (input.sku !== undefined) await notKeptInWarehouse(tx, tenantId, input.sku);
          const updated = await tx.inventoryItem.updateMany({
            where: { tenantId, id },
            data: {
              name: input.name,
              sku: input.sku,
              unit: input.unit,
              unitPrice: input.unitPrice === undefined ? undefined : BigInt(input.unitPrice),
              currencyCode: input.currency,
              description: input.description,
              updatedAt: clock.now(),
            },
          });
          if (updated.count === 0) throw itemNotFound();
          const item = await find(tx, tenantId, id);
          if (!item) throw itemNotFound();
          return item;
        })
        .catch(rethrowItemConflict);
    },

    /** Only an item with nothing in stock; its movement history goes with it. */
    delete: async (ctx: TenantContext, id: string): Promise<void> => {
      requirePermission(ctx, "inventory:delete:all");
      const { tenantId } = ctx;
      await db.withTenant(tenantId, async (tx) => {
        // Conditional on the quantity: a receipt committed meanwhile makes this delete nothing.
        const deleted = await tx.inventoryItem.deleteMany({ where: { tenantId, id, quantity: 0 } });
        if (deleted.count > 0) return;
        if (!(await find(tx, tenantId, id))) throw itemNotFound();
        throw new AppError("CONFLICT", {
          reason: "finance.inventory_in_stock",
          message: "The item is still in stock; issue or adjust it to zero before deleting it",
        });
      });
    },

    /** A receipt adds, an issue takes away, an adjustment corrects by a signed amount. */
    recordMovement: async (
      ctx: TenantContext,
      id: string,
      raw: TCreateInventoryMovementInput,
    ): Promise<TInventoryMovementResult> => {
      requirePermission(ctx, "inventory:move:all");
      const input = parseInput(ZCreateInventoryMovementInput, raw);
      const change =
        input.type === "issue" ? negateQuantity(input.quantity) : normalizeQuantity(input.quantity);
      return db.withTenant(ctx.tenantId, (tx) =>
        move(tx, ctx, id, { type: input.type, change, date: input.date, comment: input.comment }),
      );
    },

    movements: async (
      ctx: TenantContext,
      id: string,
      rawQuery: TListInventoryMovementsQuery,
    ): Promise<Page<TInventoryMovementDto>> => {
      requirePermission(ctx, "inventory:read:all");
      const query = parseInput(ZListInventoryMovementsQuery, rawQuery);
      const { tenantId } = ctx;
      const where: Prisma.InventoryMovementWhereInput = {
        tenantId,
        itemId: id,
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
      const [rows, total] = await db.withTenant(tenantId, async (tx) => {
        if ((await tx.inventoryItem.count({ where: { tenantId, id } })) === 0) throw itemNotFound();
        return Promise.all([
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
      });
      return { items: rows.map(toMovementDto), total, limit: query.limit, offset: query.offset };
    },
  };
};

export type InventoryService = ReturnType<typeof createInventoryService>;
