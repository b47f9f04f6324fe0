import { crudPermissions, recordOperationsOf, ZRecordFilters } from "@hisob/crud";
import { operationsOf, ZIdInput, ZPage, ZPagination, ZQueryBoolean } from "@hisob/kernel";
import {
  LOCATION_SORT_FIELDS,
  ZCreateLocationInput,
  ZLocationDto,
  ZUpdateLocationInput,
} from "./locations/locations.schema";
import { ORDER_SORT_FIELDS, ZCreateOrderInput, ZOrderDto, ZUpdateOrderInput } from "./orders/orders.schema";
import {
  PRODUCT_SORT_FIELDS,
  ZCreateProductInput,
  ZProductDto,
  ZUpdateProductInput,
} from "./products/products.schema";
import { ZAdjustStockInput, ZStockLevelDto } from "./stock/stock.schema";
import type { WAREHOUSE_PERMISSIONS } from "./warehouse.permissions";
import type { WarehouseServices } from "./warehouse-services";

type WarehousePermission = (typeof WAREHOUSE_PERMISSIONS)[number];
const op = operationsOf<WarehouseServices, WarehousePermission>();
const records = recordOperationsOf<WarehouseServices, WarehousePermission>();

/** An order's move to its next status: `POST /warehouse/orders/:id/<verb>`, answering the order. */
const transition = (
  verb: "confirm" | "cancel" | "fulfil",
  permission: WarehousePermission,
  summary: string,
) =>
  op.mutation({
    http: { method: "POST", path: `/warehouse/orders/:id/${verb}`, status: 200 },
    input: ZIdInput,
    output: ZOrderDto,
    access: { requires: [permission] },
    summary,
    tag: "warehouse: orders",
    call: (services, ctx, input) => services.orders[verb](ctx, input.id),
  });

/** The Warehouse module's operations: REST routes, OpenAPI and tRPC procedures are derived from them. */
export const warehouseOperations = {
  products: records({
    path: "/warehouse/products",
    tag: "warehouse: products",
    service: (services) => services.products,
    sortFields: PRODUCT_SORT_FIELDS,
    schemas: { create: ZCreateProductInput, update: ZUpdateProductInput, item: ZProductDto },
    permissions: crudPermissions("products"),
    summaries: {
      list: "List products",
      get: "Get a product",
      create: "Create a product (its SKU unique in the organization and not counted by finance's inventory)",
      update: "Change a product",
      delete: "Delete a product with no stock above zero and no order line",
    },
  }),
  locations: records({
    path: "/warehouse/locations",
    tag: "warehouse: locations",
    service: (services) => services.locations,
    sortFields: LOCATION_SORT_FIELDS,
    schemas: { create: ZCreateLocationInput, update: ZUpdateLocationInput, item: ZLocationDto },
    permissions: crudPermissions("locations"),
    summaries: {
      list: "List warehouse locations",
      get: "Get a location",
      create: "Create a location (a warehouse, a shop, a zone)",
      update: "Rename a location",
      delete: "Delete an empty location no order refers to",
    },
  }),
  stock: {
    list: op.query({
      http: { method: "GET", path: "/warehouse/stock", status: 200 },
      input: ZPagination.extend({
        filters: ZRecordFilters.optional(),
        /** Only rows with a quantity above zero. */
        inStock: ZQueryBoolean.optional(),
      }),
      output: ZPage(ZStockLevelDto),
      access: { requires: ["stock:read:all"] },
      summary: "Stock per product and location (filters: productId, locationId)",
      tag: "warehouse: stock",
      call: (services, ctx, input) => services.stock.list(ctx, input),
    }),
    adjust: op.mutation({
      http: { method: "POST", path: "/warehouse/stock/adjustments", status: 201 },
      input: ZAdjustStockInput,
      output: ZStockLevelDto,
      access: { requires: ["stock:adjust:all"] },
      summary: "Correct a product's stock at a location after a stocktake (never below zero)",
      tag: "warehouse: stock",
      call: (services, ctx, input) => services.stock.adjust(ctx, input),
    }),
  },
  orders: {
    ...records({
      path: "/warehouse/orders",
      tag: "warehouse: orders",
      service: (services) => services.orders,
      sortFields: ORDER_SORT_FIELDS,
      schemas: { create: ZCreateOrderInput, update: ZUpdateOrderInput, item: ZOrderDto },
      permissions: crudPermissions("orders"),
      summaries: {
        list: "List purchase and sales orders, newest first",
        get: "Get an order with its lines",
        create: "Create a draft purchase or sales order",
        update: "Change a draft order (lines replace all of them)",
        delete: "Delete a draft or cancelled order",
      },
    }),
    confirm: transition("confirm", "orders:update:all", "Confirm a draft order"),
    cancel: transition("cancel", "orders:update:all", "Cancel a draft or confirmed order"),
    fulfil: transition(
      "fulfil",
      "orders:fulfil:all",
      "Fulfil a confirmed order: moves its stock in one transaction, refused if a sale would take stock below zero",
    ),
  },
};
