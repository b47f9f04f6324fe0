import { createRecordService, crudPermissions, type RecordDeps } from "@hisob/crud";
import type { Prisma, Tx } from "@hisob/db";
import { AppError } from "@hisob/kernel";
import { lockSku } from "../stock/sku-lock";
import { currencyNotSelected } from "../warehouse-errors";
import {
  PRODUCT_SORT_FIELDS,
  type TProductDto,
  ZCreateProductInput,
  ZUpdateProductInput,
} from "./products.schema";

const productSelect = {
  id: true,
  sku: true,
  name: true,
  unit: true,
  price: true,
  currencyCode: true,
  barcode: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.WarehouseProductSelect;

type ProductRow = Prisma.WarehouseProductGetPayload<{ select: typeof productSelect }>;

export const selectedCurrency = async (tx: Tx, tenantId: string, code: string) =>
  (await tx.tenantCurrency.count({ where: { tenantId, currencyCode: code } })) > 0;

/**
 * One stock truth: goods kept in the warehouse are products, and their quantity lives only in
 * warehouse stock. A SKU that finance already keeps as an inventory item (with its own quantity) is
 * refused, so the same goods are never counted in two places.
 */
const notCountedInFinance = async (tx: Tx, tenantId: string, sku: string) => {
  await lockSku(tx, tenantId, sku);
  if ((await tx.inventoryItem.count({ where: { tenantId, sku } })) > 0) {
    throw new AppError("CONFLICT", {
      reason: "warehouse.sku_in_finance_inventory",
      message: `Finance keeps "${sku}" as an inventory item with its own quantity; move it to the warehouse first (see README)`,
    });
  }
};

export const createProductsService = (deps: RecordDeps) =>
  createRecordService(
    {
      name: "Product",
      auditEntity: "warehouse_product",
      missing: { reason: "warehouse.product_not_found", message: "Product not found" },
      permissions: crudPermissions("products"),
      model: (tx) => tx.warehouseProduct,
      select: productSelect,
      toDto: ({ currencyCode, price, ...row }: ProductRow): TProductDto => ({
        ...row,
        price: price.toString(),
        currency: currencyCode,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      }),
      createInput: ZCreateProductInput,
      updateInput: ZUpdateProductInput,
      sortFields: PRODUCT_SORT_FIELDS,
      filters: {
        sku: { kind: "string" },
        name: { kind: "string" },
        barcode: { kind: "string" },
        currency: { kind: "string", column: "currencyCode", operators: ["eq", "in"] },
        price: { kind: "int64" },
        createdAt: { kind: "time" },
      },
      references: {
        currency: {
          label: "Currency",
          reason: "warehouse.currency_not_selected",
          exists: selectedCurrency,
          refuse: currencyNotSelected,
        },
      },
      toData: ({ currency, price, ...input }) => ({
        ...input,
        ...(currency === undefined ? {} : { currencyCode: currency }),
        ...(price === undefined ? {} : { price: BigInt(price as string) }),
      }),
      beforeCreate: (tx, ctx, input) => notCountedInFinance(tx, ctx.tenantId, input.sku),
      beforeUpdate: async (tx, ctx, current, input) => {
        if (input.sku !== undefined && input.sku !== current.sku)
          await notCountedInFinance(tx, ctx.tenantId, input.sku);
      },
      // Rows left at zero by past movements are not stock: they go with it. Any quantity above zero refuses.
      beforeDelete: async (tx, ctx, current) => {
        await tx.warehouseStock.deleteMany({
          where: { tenantId: ctx.tenantId, productId: current.id, quantity: 0 },
        });
      },
      conflicts: {
        unique: { reason: "warehouse.sku_taken", message: "Another product has this SKU" },
        inUse: {
          reason: "warehouse.product_in_use",
          message: "Stock or orders refer to the product; it cannot be deleted",
        },
      },
    },
    deps,
  );

export type ProductsService = ReturnType<typeof createProductsService>;
