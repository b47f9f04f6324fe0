import { notFound } from "@hisob/crud";
import { audit, type Db, type Outbox, type Tx } from "@hisob/db";
import {
  AppError,
  type Clock,
  type FilterSpec,
  filterConditions,
  type Page,
  parseFilters,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
  ZPagination,
} from "@hisob/kernel";
import { normalizeQuantity } from "@hisob/kernel/schema";
import { type TStockLevelDto, ZAdjustStockInput } from "./stock.schema";

/**
 * Adds a signed `change` (a validated decimal string) to one product's stock at one location in a
 * single statement and returns the quantity after it, or null when it would go below zero. The
 * UPDATE takes the row's lock, so concurrent takers queue and each sees what the previous committed:
 * the last units go to exactly one of them. An increase creates the row on first receipt.
 */
export const moveStock = async (
  tx: Tx,
  at: { tenantId: string; productId: string; locationId: string },
  change: string,
  now: Date,
): Promise<string | null> => {
  const rows = change.startsWith("-")
    ? await tx.$queryRaw<{ quantity: string }[]>`
        UPDATE warehouse_stock SET quantity = quantity + ${change}::numeric, updated_at = ${now}
        WHERE tenant_id = ${at.tenantId}::uuid AND product_id = ${at.productId}::uuid
          AND location_id = ${at.locationId}::uuid AND quantity + ${change}::numeric >= 0
        RETURNING quantity::text AS quantity`
    : await tx.$queryRaw<{ quantity: string }[]>`
        INSERT INTO warehouse_stock (tenant_id, product_id, location_id, quantity, updated_at)
        VALUES (${at.tenantId}::uuid, ${at.productId}::uuid, ${at.locationId}::uuid, ${change}::numeric, ${now})
        ON CONFLICT (tenant_id, product_id, location_id)
        DO UPDATE SET quantity = warehouse_stock.quantity + EXCLUDED.quantity, updated_at = EXCLUDED.updated_at
        RETURNING quantity::text AS quantity`;
  const quantity = rows[0]?.quantity;
  return quantity === undefined ? null : normalizeQuantity(quantity);
};

export const insufficientStock = (product: { sku: string; name: string }, available: string) =>
  new AppError("BUSINESS_RULE", {
    reason: "warehouse.insufficient_stock",
    message: `Not enough "${product.name}" (${product.sku}) in stock: ${available} available`,
    params: { sku: product.sku, available },
  });

const STOCK_FILTERS: FilterSpec = {
  productId: { kind: "uuid", operators: ["eq", "in"] },
  locationId: { kind: "uuid", operators: ["eq", "in"] },
};

/** Stock per product per location: read it, or correct it after a stocktake. Orders move it too (orders.service). */
export const createStockService = (deps: { db: Db; outbox: Outbox; clock?: Clock }) => {
  const clock = deps.clock ?? systemClock;
  return {
    /** Stock rows (quantity 0 included once a product has been at a location), by product then location. */
    list: async (
      ctx: TenantContext,
      query: { offset?: number; limit?: number; filters?: unknown; inStock?: boolean } = {},
    ): Promise<Page<TStockLevelDto>> => {
      requirePermission(ctx, "stock:read:all");
      const page = parseInput(ZPagination, { limit: query.limit, offset: query.offset });
      const where = {
        AND: [
          { tenantId: ctx.tenantId },
          ...filterConditions(parseFilters(STOCK_FILTERS, query.filters)),
          ...(query.inStock ? [{ quantity: { gt: 0 } }] : []),
        ],
      };
      const [rows, total] = await deps.db.withTenant(ctx.tenantId, (tx) =>
        Promise.all([
          tx.warehouseStock.findMany({
            where,
            orderBy: [{ productId: "asc" }, { locationId: "asc" }],
            skip: page.offset,
            take: page.limit,
          }),
          tx.warehouseStock.count({ where }),
        ]),
      );
      return {
        items: rows.map((row) => ({
          productId: row.productId,
          locationId: row.locationId,
          quantity: normalizeQuantity(row.quantity.toString()),
          updatedAt: row.updatedAt.toISOString(),
        })),
        total,
        limit: page.limit,
        offset: page.offset,
      };
    },

    /** A stocktake correction; never below zero (422 warehouse.insufficient_stock). */
    adjust: async (ctx: TenantContext, raw: unknown): Promise<TStockLevelDto> => {
      requirePermission(ctx, "stock:adjust:all");
      const input = parseInput(ZAdjustStockInput, raw);
      const now = clock.now();
      return deps.db.withTenant(ctx.tenantId, async (tx) => {
        const product = await tx.warehouseProduct.findFirst({
          where: { tenantId: ctx.tenantId, id: input.productId },
          select: { id: true, sku: true, name: true },
        });
        if (!product) throw notFound("warehouse.product_not_found", "Product not found", "productId");
        const location = await tx.warehouseLocation.count({
          where: { tenantId: ctx.tenantId, id: input.locationId },
        });
        if (location === 0)
          throw notFound("warehouse.location_not_found", "Location not found", "locationId");
        const at = { tenantId: ctx.tenantId, productId: product.id, locationId: input.locationId };
        const quantity = await moveStock(tx, at, input.change, now);
        if (quantity === null) {
          const current = await tx.warehouseStock.findFirst({ where: at, select: { quantity: true } });
          throw insufficientStock(product, normalizeQuantity(current?.quantity.toString() ?? "0"));
        }
        // Audited as the stock of one product at one location: `product:location`.
        await audit(tx, ctx, "warehouse_stock", `${product.id}:${input.locationId}`, "adjust", {
          after: {
            productId: product.id,
            locationId: input.locationId,
            change: normalizeQuantity(input.change),
            quantity,
            reason: input.reason,
          },
        });
        await deps.outbox.raise(tx, {
          type: "StockAdjusted",
          tenantId: ctx.tenantId,
          payload: {
            ...at,
            change: normalizeQuantity(input.change),
            quantity,
            reason: input.reason,
            actorId: ctx.actor.userId,
          },
        });
        return {
          productId: product.id,
          locationId: input.locationId,
          quantity,
          updatedAt: now.toISOString(),
        };
      });
    },
  };
};

export type StockService = ReturnType<typeof createStockService>;
