import { audit, type Db, idempotent, isNumericOverflow, type Outbox, type Tx } from "@hisob/db";
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
import { negateQuantity, normalizeQuantity } from "@hisob/kernel/schema";
import { notFound } from "../finance-errors";
import { assertPeriodOpen, prismaSql } from "../periods/closed-period";
import { inventoryRepository as repository } from "./inventory.repository";
import {
  type TCreateInventoryMovementInput,
  type TInventoryMovementDto,
  type TInventoryMovementResult,
  type TListInventoryMovementsQuery,
  ZCreateInventoryMovementInput,
  ZListInventoryMovementsQuery,
} from "./inventory.schema";

export const itemNotFound = () => notFound("finance.inventory_item_not_found", "Inventory item not found");

/** One change of an item's quantity: signed, in canonical notation. */
export type Movement = {
  type: "receipt" | "issue" | "adjustment";
  change: string;
  date: string;
  comment: string;
};

/**
 * An item's movements. A movement changes the quantity with one conditional UPDATE
 * (`quantity + change >= 0`) that takes the item's row lock: concurrent issues queue on it and each
 * sees what the previous one committed, so the quantity is exact and never negative (a CHECK
 * constraint says so too).
 */
export const createInventoryMovementsService = (deps: { db: Db; outbox: Outbox; clock?: Clock }) => {
  const { db, outbox } = deps;
  const clock = deps.clock ?? systemClock;

  /** Applies one movement to the item and records it; throws (rolling back) if stock would go below zero. */
  const move = async (
    tx: Tx,
    ctx: TenantContext,
    itemId: string,
    movement: Movement,
  ): Promise<TInventoryMovementResult> => {
    const { tenantId } = ctx;
    await assertPeriodOpen(prismaSql(tx), tenantId, [{ date: movement.date, field: "date" }]);
    const now = clock.now();
    let after: string | null;
    try {
      after = await repository.addQuantity(tx, tenantId, itemId, movement.change, now);
    } catch (error) {
      // PostgreSQL's "numeric field overflow" (22003): a quantity beyond NUMERIC(20, 6).
      if (isNumericOverflow(error)) {
        throw new AppError("BUSINESS_RULE", {
          reason: "finance.quantity_out_of_range",
          message: "The item's quantity would leave the range a quantity can hold",
          params: { field: "quantity" },
        });
      }
      throw error;
    }
    if (after === null) {
      const item = await repository.findById(tx, tenantId, itemId);
      if (!item) throw itemNotFound();
      throw new AppError("BUSINESS_RULE", {
        reason: "finance.insufficient_stock",
        message: `Not enough in stock: ${item.quantity} ${item.unit} of "${item.name}"`,
        params: { field: "quantity", available: item.quantity, unit: item.unit },
      });
    }
    const dto = await repository.insertMovement(tx, {
      // Minted under the item's row lock: ids order an item's movements as they were applied.
      id: newId(),
      tenantId,
      itemId,
      type: movement.type,
      quantityChange: movement.change,
      quantityAfter: after,
      date: movement.date,
      comment: movement.comment,
      createdBy: ctx.actor.userId,
      createdAt: now,
    });
    const item = await repository.findById(tx, tenantId, itemId);
    if (!item) throw itemNotFound();
    await outbox.raise(tx, { type: "InventoryMoved", tenantId, payload: { movementId: dto.id, ...dto } });
    // The movement is part of the item's history, which goes when the item is deleted: the audit log keeps it.
    await audit(tx, ctx, "inventory_item", itemId, "move", { after: { movementId: dto.id, ...dto } });
    return { item, movement: dto };
  };

  return {
    /** The same movement inside a transaction the caller holds (an item's opening quantity). */
    move,

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
      // Once per Idempotency-Key: a repeat answers the first movement and moves nothing.
      return db.withTenant(ctx.tenantId, (tx) =>
        idempotent(tx, ctx, "inventory.move", { id, ...input }, () =>
          move(tx, ctx, id, { type: input.type, change, date: input.date, comment: input.comment }),
        ),
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
      const page = await db.withTenant(tenantId, async (tx) => {
        if (!(await repository.exists(tx, tenantId, id))) throw itemNotFound();
        return repository.listMovements(tx, tenantId, id, query);
      });
      return { ...page, limit: query.limit, offset: query.offset };
    },
  };
};
