import { createRecordService, crudPermissions, notFound, type RecordDeps } from "@hisob/crud";
import { audit, diffFields, type Prisma, type Tx } from "@hisob/db";
import {
  AppError,
  INT64_MAX,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import { dateOf, normalizeQuantity, toIsoDate } from "@hisob/kernel/schema";
import type { z } from "zod";
import { selectedCurrency } from "../products/products.service";
import { insufficientStock, moveStock } from "../stock/stock.service";
import { currencyNotSelected, fieldError } from "../warehouse-errors";
import {
  ORDER_SORT_FIELDS,
  type TOrderDto,
  ZCreateOrderInput,
  type ZOrderLineInput,
  ZUpdateOrderInput,
} from "./orders.schema";

const lineSelect = { id: true, position: true, productId: true, quantity: true, unitPrice: true } as const;

const orderSelect = {
  id: true,
  kind: true,
  status: true,
  locationId: true,
  clientId: true,
  currencyCode: true,
  date: true,
  note: true,
  total: true,
  createdBy: true,
  confirmedAt: true,
  fulfilledAt: true,
  cancelledAt: true,
  createdAt: true,
  updatedAt: true,
  lines: { select: lineSelect, orderBy: { position: "asc" } },
} satisfies Prisma.WarehouseOrderSelect;

type OrderRow = Prisma.WarehouseOrderGetPayload<{ select: typeof orderSelect }>;

const SCALE = 1_000_000n;

/** A validated quantity ("12.5", at most 6 decimals) in millionths. */
const millionths = (quantity: string): bigint => {
  const [whole = "0", fraction = ""] = quantity.split(".");
  return BigInt(whole) * SCALE + BigInt(fraction.padEnd(6, "0"));
};

/** quantity × unit price in minor units, rounded half up (both are ≥ 0). */
export const lineAmount = (quantity: string, unitPrice: bigint): bigint =>
  (millionths(quantity) * unitPrice + SCALE / 2n) / SCALE;

const iso = (date: Date | null) => date?.toISOString() ?? null;

const toDto = ({ currencyCode, lines, ...row }: OrderRow): TOrderDto => ({
  ...row,
  currency: currencyCode,
  date: toIsoDate(row.date),
  total: row.total.toString(),
  confirmedAt: iso(row.confirmedAt),
  fulfilledAt: iso(row.fulfilledAt),
  cancelledAt: iso(row.cancelledAt),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  lines: lines.map((line) => {
    const quantity = normalizeQuantity(line.quantity.toString());
    return {
      id: line.id,
      position: line.position,
      productId: line.productId,
      quantity,
      unitPrice: line.unitPrice.toString(),
      amount: lineAmount(quantity, line.unitPrice).toString(),
    };
  }),
});

const wrongStatus = (status: string, wanted: string) =>
  new AppError("BUSINESS_RULE", {
    reason: "warehouse.order_wrong_status",
    message: `The order is ${status}; this needs a ${wanted} order`,
    params: { status },
  });

type LineInput = z.output<typeof ZOrderLineInput>;

/**
 * Purchase and sales orders: draft → confirmed → fulfilled, or cancelled from draft or confirmed.
 * Lines change only in a draft. Fulfilling moves the stock of every line in the same transaction as the
 * status change, and refuses as a whole if any product would go below zero at the order's location.
 */
export const createOrdersService = (deps: RecordDeps) => {
  const clock = deps.clock ?? systemClock;
  const records = createRecordService(
    {
      name: "Order",
      auditEntity: "warehouse_order",
      missing: { reason: "warehouse.order_not_found", message: "Order not found" },
      permissions: crudPermissions("orders"),
      model: (tx) => tx.warehouseOrder,
      select: orderSelect,
      toDto,
      createInput: ZCreateOrderInput,
      updateInput: ZUpdateOrderInput,
      sortFields: ORDER_SORT_FIELDS,
      defaultOrder: "desc",
      filters: {
        kind: { kind: "enum", values: ["purchase", "sales"] },
        status: { kind: "enum", values: ["draft", "confirmed", "fulfilled", "cancelled"] },
        locationId: { kind: "uuid", operators: ["eq", "in"] },
        clientId: { kind: "uuid", operators: ["eq", "in"] },
        currency: { kind: "string", column: "currencyCode", operators: ["eq", "in"] },
        date: { kind: "date" },
        createdBy: { kind: "uuid", operators: ["eq"] },
      },
    },
    deps,
  );

  /** The order's references, all in this tenant; the lines priced and summed. */
  const prepare = async (
    tx: Tx,
    tenantId: string,
    input: { locationId?: string; clientId?: string | null; currency?: string; lines?: LineInput[] },
    currency: string,
  ) => {
    if (
      input.locationId &&
      (await tx.warehouseLocation.count({ where: { tenantId, id: input.locationId } })) === 0
    ) {
      throw notFound("warehouse.location_not_found", "Location not found", "locationId");
    }
    if (input.clientId && (await tx.crmClient.count({ where: { tenantId, id: input.clientId } })) === 0) {
      throw notFound("crm.client_not_found", "Client not found", "clientId");
    }
    if (input.currency && !(await selectedCurrency(tx, tenantId, input.currency)))
      throw currencyNotSelected("currency");
    if (!input.lines) return undefined;
    const ids = [...new Set(input.lines.map((line) => line.productId))];
    const products = await tx.warehouseProduct.findMany({
      where: { tenantId, id: { in: ids } },
      select: { id: true, price: true, currencyCode: true },
    });
    const byId = new Map(products.map((product) => [product.id, product]));
    let total = 0n;
    const lines = input.lines.map((line, position) => {
      const product = byId.get(line.productId);
      if (!product)
        throw notFound("warehouse.product_not_found", "Product not found", `lines.${position}.productId`);
      let unitPrice: bigint;
      if (line.unitPrice !== undefined) unitPrice = BigInt(line.unitPrice);
      else if (product.currencyCode === currency) unitPrice = product.price;
      else {
        throw fieldError(
          `lines.${position}.unitPrice`,
          "warehouse.unit_price_required",
          `is required: the product is priced in ${product.currencyCode}, the order is in ${currency}`,
        );
      }
      total += lineAmount(line.quantity, unitPrice);
      return { tenantId, position, productId: product.id, quantity: line.quantity, unitPrice };
    });
    if (total > INT64_MAX)
      throw fieldError("lines", "warehouse.total_too_large", "add up to more than can be stored");
    return { lines, total };
  };

  const lockOrder = async (tx: Tx, ctx: TenantContext, id: string) => {
    const row = await records.findRow(tx, ctx.tenantId, id);
    if (!row) throw records.missing();
    // The row lock: concurrent edits and transitions of one order queue behind each other.
    await tx.$queryRaw`SELECT 1 FROM warehouse_orders WHERE tenant_id = ${ctx.tenantId}::uuid AND id = ${row.id}::uuid FOR UPDATE`;
    const locked = await records.findRow(tx, ctx.tenantId, row.id);
    if (!locked) throw records.missing();
    return locked;
  };

  /**
   * A change of one order under its row lock: `apply` checks the status and returns the new columns.
   * Event and audit entry commit with it.
   */
  const transition = async (
    ctx: TenantContext,
    id: string,
    event: string,
    action: "update" | "confirm" | "cancel" | "fulfil",
    apply: (tx: Tx, order: OrderRow, now: Date) => Promise<Prisma.WarehouseOrderUncheckedUpdateManyInput>,
  ): Promise<TOrderDto> =>
    deps.db.withTenant(ctx.tenantId, async (tx) => {
      const order = await lockOrder(tx, ctx, id);
      const now = clock.now();
      const data = await apply(tx, order, now);
      await tx.warehouseOrder.updateMany({
        where: { tenantId: ctx.tenantId, id: order.id },
        data: { ...data, updatedAt: now },
      });
      const after = await records.findRow(tx, ctx.tenantId, order.id);
      if (!after) throw records.missing();
      const dto = toDto(after);
      await deps.outbox.raise(tx, {
        type: event,
        tenantId: ctx.tenantId,
        payload: { id: dto.id, kind: dto.kind, status: dto.status, actorId: ctx.actor.userId },
      });
      await audit(tx, ctx, "warehouse_order", dto.id, action, diffFields(toDto(order), dto));
      return dto;
    });

  return {
    list: records.list,
    get: records.get,
    findByIds: records.findByIds,

    create: async (ctx: TenantContext, raw: unknown): Promise<TOrderDto> => {
      requirePermission(ctx, "orders:create:all");
      const input = parseInput(ZCreateOrderInput, raw);
      const now = clock.now();
      return deps.db.withTenant(ctx.tenantId, async (tx) => {
        const prepared = await prepare(tx, ctx.tenantId, input, input.currency);
        if (!prepared) throw new Error("an order always has lines");
        const created = await tx.warehouseOrder.create({
          data: {
            tenantId: ctx.tenantId,
            kind: input.kind,
            locationId: input.locationId,
            clientId: input.clientId,
            currencyCode: input.currency,
            date: dateOf(input.date),
            note: input.note,
            total: prepared.total,
            createdBy: ctx.actor.userId,
            createdAt: now,
            updatedAt: now,
          },
          select: { id: true },
        });
        await tx.warehouseOrderLine.createMany({
          data: prepared.lines.map((line) => ({ ...line, orderId: created.id })),
        });
        const row = await records.findRow(tx, ctx.tenantId, created.id);
        if (!row) throw records.missing();
        const dto = toDto(row);
        await audit(tx, ctx, "warehouse_order", dto.id, "create", { after: dto });
        await deps.outbox.raise(tx, {
          type: "OrderCreated",
          tenantId: ctx.tenantId,
          payload: {
            id: dto.id,
            kind: dto.kind,
            total: dto.total,
            currency: dto.currency,
            actorId: ctx.actor.userId,
          },
        });
        return dto;
      });
    },

    /** Edits a draft (`lines` replaces them all); anything else is 422 warehouse.order_wrong_status. */
    update: async (ctx: TenantContext, id: string, raw: unknown): Promise<TOrderDto> => {
      requirePermission(ctx, "orders:update:all");
      const input = parseInput(ZUpdateOrderInput, raw);
      return transition(ctx, id, "OrderUpdated", "update", async (tx, order) => {
        if (order.status !== "draft") throw wrongStatus(order.status, "draft");
        const currency = input.currency ?? order.currencyCode;
        // A new currency reprices lines that take the product's price: prepare them again.
        const lines =
          input.lines ??
          (input.currency && input.currency !== order.currencyCode
            ? order.lines.map((line) => ({
                productId: line.productId,
                quantity: normalizeQuantity(line.quantity.toString()),
              }))
            : undefined);
        const prepared = await prepare(tx, ctx.tenantId, { ...input, ...(lines ? { lines } : {}) }, currency);
        if (prepared) {
          await tx.warehouseOrderLine.deleteMany({ where: { tenantId: ctx.tenantId, orderId: order.id } });
          await tx.warehouseOrderLine.createMany({
            data: prepared.lines.map((line) => ({ ...line, orderId: order.id })),
          });
        }
        return {
          ...(input.locationId ? { locationId: input.locationId } : {}),
          ...(input.clientId !== undefined ? { clientId: input.clientId } : {}),
          ...(input.currency ? { currencyCode: input.currency } : {}),
          ...(input.date ? { date: dateOf(input.date) } : {}),
          ...(input.note !== undefined ? { note: input.note } : {}),
          ...(prepared ? { total: prepared.total } : {}),
        };
      });
    },

    /** Only a draft or a cancelled order is deleted (with its lines); a confirmed or fulfilled one is history. */
    delete: async (ctx: TenantContext, id: string): Promise<void> => {
      requirePermission(ctx, "orders:delete:all");
      await deps.db.withTenant(ctx.tenantId, async (tx) => {
        const order = await lockOrder(tx, ctx, id);
        if (order.status !== "draft" && order.status !== "cancelled")
          throw wrongStatus(order.status, "draft or cancelled");
        await tx.warehouseOrder.deleteMany({ where: { tenantId: ctx.tenantId, id: order.id } });
        await audit(tx, ctx, "warehouse_order", order.id, "delete", { before: toDto(order) });
        await deps.outbox.raise(tx, {
          type: "OrderDeleted",
          tenantId: ctx.tenantId,
          payload: { id: order.id, actorId: ctx.actor.userId },
        });
      });
    },

    confirm: (ctx: TenantContext, id: string) => {
      requirePermission(ctx, "orders:update:all");
      return transition(ctx, id, "OrderConfirmed", "confirm", async (_tx, order, now) => {
        if (order.status !== "draft") throw wrongStatus(order.status, "draft");
        return { status: "confirmed", confirmedAt: now };
      });
    },

    cancel: (ctx: TenantContext, id: string) => {
      requirePermission(ctx, "orders:update:all");
      return transition(ctx, id, "OrderCancelled", "cancel", async (_tx, order, now) => {
        if (order.status !== "draft" && order.status !== "confirmed") {
          throw wrongStatus(order.status, "draft or confirmed");
        }
        return { status: "cancelled", cancelledAt: now };
      });
    },

    /**
     * Fulfils a confirmed order: a purchase adds each line's quantity to the location's stock, a sale
     * takes it. Products are moved in id order (two orders over the same products cannot deadlock); a
     * sale that would take any product below zero refuses the whole order (422
     * warehouse.insufficient_stock), which stays confirmed.
     */
    fulfil: (ctx: TenantContext, id: string) => {
      requirePermission(ctx, "orders:fulfil:all");
      return transition(ctx, id, "OrderFulfilled", "fulfil", async (tx, order, now) => {
        if (order.status !== "confirmed") throw wrongStatus(order.status, "confirmed");
        const perProduct = new Map<string, bigint>();
        for (const line of order.lines) {
          const quantity = normalizeQuantity(line.quantity.toString());
          perProduct.set(line.productId, (perProduct.get(line.productId) ?? 0n) + millionths(quantity));
        }
        for (const productId of [...perProduct.keys()].sort()) {
          const amount = perProduct.get(productId) ?? 0n;
          const text = `${amount / SCALE}.${(amount % SCALE).toString().padStart(6, "0")}`;
          const change = order.kind === "sales" ? `-${text}` : text;
          const at = { tenantId: ctx.tenantId, productId, locationId: order.locationId };
          const quantity = await moveStock(tx, at, change, now);
          if (quantity === null) {
            const product = await tx.warehouseProduct.findFirst({
              where: { tenantId: ctx.tenantId, id: productId },
              select: { sku: true, name: true },
            });
            const stock = await tx.warehouseStock.findFirst({ where: at, select: { quantity: true } });
            throw insufficientStock(
              product ?? { sku: productId, name: productId },
              normalizeQuantity(stock?.quantity.toString() ?? "0"),
            );
          }
          // The stock's own history (as a stock adjustment's): which order moved how much, and what is left.
          await audit(tx, ctx, "warehouse_stock", `${productId}:${order.locationId}`, "fulfil", {
            after: {
              orderId: order.id,
              productId,
              locationId: order.locationId,
              change: normalizeQuantity(change),
              quantity,
            },
          });
        }
        return { status: "fulfilled", fulfilledAt: now };
      });
    },
  };
};

export type OrdersService = ReturnType<typeof createOrdersService>;
