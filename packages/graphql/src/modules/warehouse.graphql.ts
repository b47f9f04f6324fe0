import type { TClientDto } from "@hisob/crm";
import {
  LOCATION_SORT_FIELDS,
  ORDER_SORT_FIELDS,
  PRODUCT_SORT_FIELDS,
  type TLocationDto,
  type TOrderDto,
  type TProductDto,
  type TStockLevelDto,
  warehouseOperations,
} from "@hisob/warehouse";
import { callerOf, type GraphqlContext } from "../context";
import { loadRecord, mergeResolvers, recordResolvers, recordSdl } from "../records";
import type { GraphqlModule } from "../registry";

/*
 * Warehouse: products, locations, inventory (stock per product per location) and purchase/sales orders.
 * Products, locations and orders are records of the building block; stock moves only through order
 * fulfilment and stocktake adjustments.
 */

const typeDefs = /* GraphQL */ `
  "Goods the organization keeps in its warehouse (their quantity lives only in Inventory)."
  type Product {
    id: ID!
    "Unique per organization."
    sku: String!
    name: String!
    unit: String!
    "Minor units of currency per unit."
    price: Int64!
    currency: String!
    barcode: String!
    createdAt: Time!
    updatedAt: Time!
  }

  input ProductInput {
    sku: String!
    name: String!
    unit: String
    price: Int64
    currency: String!
    barcode: String
  }

  input ProductPatch {
    sku: String
    name: String
    unit: String
    price: Int64
    currency: String
    barcode: String
  }

  "A place goods are kept: a warehouse, a shop, a zone."
  type Location {
    id: ID!
    code: String!
    name: String!
    createdAt: Time!
    updatedAt: Time!
  }

  input LocationInput {
    code: String!
    name: String!
  }

  input LocationPatch {
    code: String
    name: String
  }

  "How much of a product is at a location (never below zero)."
  type Inventory {
    productId: ID!
    product: Product
    locationId: ID!
    location: Location
    "Exact decimal string, e.g. 12.5."
    quantity: String!
    updatedAt: Time!
  }

  type PaginatedInventory {
    data: [Inventory!]!
    total: Int64!
  }

  "A stocktake correction."
  input InventoryAdjustmentInput {
    productId: ID!
    locationId: ID!
    "Signed decimal string: -2 takes two away."
    change: String!
    reason: String!
  }

  enum OrderKind {
    "Goods come in: fulfilling adds stock."
    purchase
    "Goods go out: fulfilling takes stock."
    sales
  }

  enum OrderStatus {
    draft
    confirmed
    fulfilled
    cancelled
  }

  type OrderLine {
    id: ID!
    position: Int!
    productId: ID!
    product: Product
    quantity: String!
    "Minor units of the order's currency per unit."
    unitPrice: Int64!
    "quantity × unitPrice, rounded half up."
    amount: Int64!
  }

  "A purchase or sales order: draft → confirmed → fulfilled, or cancelled."
  type Order {
    id: ID!
    kind: OrderKind!
    status: OrderStatus!
    locationId: ID!
    location: Location
    clientId: ID
    "Needs clients:read:all."
    client: Client
    currency: String!
    "YYYY-MM-DD"
    date: String!
    note: String!
    total: Int64!
    createdBy: ID!
    confirmedAt: Time
    fulfilledAt: Time
    cancelledAt: Time
    createdAt: Time!
    updatedAt: Time!
    lines: [OrderLine!]!
  }

  input OrderLineInput {
    productId: ID!
    "Decimal string > 0."
    quantity: String!
    "Default: the product's price when it is in the order's currency."
    unitPrice: Int64
  }

  input OrderInput {
    kind: OrderKind!
    locationId: ID!
    clientId: ID
    currency: String!
    date: String!
    note: String
    lines: [OrderLineInput!]!
  }

  "Only a draft changes; lines replaces them all."
  input OrderPatch {
    locationId: ID
    clientId: ID
    currency: String
    date: String
    note: String
    lines: [OrderLineInput!]
  }

  type Query {
    "Stock per product per location (stock:read:all). Filters: productId, locationId (eq, in)."
    inventory(offset: Int = 0, limit: Int = 20, inStock: Boolean = false, filters: [Filter!]): PaginatedInventory!
  }

  type Mutation {
    "Corrects stock after a stocktake (stock:adjust:all); never below zero."
    adjustInventory(input: InventoryAdjustmentInput!): Inventory!
    "draft → confirmed (orders:update:all)."
    confirmOrder(id: ID!): Order!
    "confirmed → fulfilled, moving the stock in the same transaction (orders:fulfil:all); BUSINESS_RULE warehouse.insufficient_stock when a sale would take any product below zero."
    fulfilOrder(id: ID!): Order!
    "draft or confirmed → cancelled (orders:update:all)."
    cancelOrder(id: ID!): Order!
  }
${recordSdl({
  type: "Product",
  plural: "products",
  operations: warehouseOperations.products,
  sortFields: PRODUCT_SORT_FIELDS,
  filterFields: ["sku", "name", "barcode", "currency", "price", "createdAt"],
})}
${recordSdl({
  type: "Location",
  plural: "locations",
  operations: warehouseOperations.locations,
  sortFields: LOCATION_SORT_FIELDS,
  filterFields: ["code", "name"],
})}
${recordSdl({
  type: "Order",
  plural: "orders",
  operations: warehouseOperations.orders,
  sortFields: ORDER_SORT_FIELDS,
  filterFields: ["kind", "status", "locationId", "clientId", "currency", "date", "createdBy"],
  ascending: false,
})}
`;

const productOf = (context: GraphqlContext, id: string | null) =>
  loadRecord<TProductDto>(
    context,
    "warehouse.products",
    (caller, ids) => context.services.warehouse.products.findByIds(caller, ids),
    id,
  );
const locationOf = (context: GraphqlContext, id: string | null) =>
  loadRecord<TLocationDto>(
    context,
    "warehouse.locations",
    (caller, ids) => context.services.warehouse.locations.findByIds(caller, ids),
    id,
  );

export const warehouseModule: GraphqlModule = {
  name: "warehouse",
  typeDefs,
  resolvers: mergeResolvers(
    recordResolvers({ type: "Product", plural: "products" }, (services) => services.warehouse.products),
    recordResolvers({ type: "Location", plural: "locations" }, (services) => services.warehouse.locations),
    recordResolvers({ type: "Order", plural: "orders" }, (services) => services.warehouse.orders),
    {
      Inventory: {
        product: (level: TStockLevelDto, _: unknown, context: GraphqlContext) =>
          productOf(context, level.productId),
        location: (level: TStockLevelDto, _: unknown, context: GraphqlContext) =>
          locationOf(context, level.locationId),
      },
      OrderLine: {
        product: (line: TOrderDto["lines"][number], _: unknown, context: GraphqlContext) =>
          productOf(context, line.productId),
      },
      Order: {
        location: (order: TOrderDto, _: unknown, context: GraphqlContext) =>
          locationOf(context, order.locationId),
        client: (order: TOrderDto, _: unknown, context: GraphqlContext) =>
          loadRecord<TClientDto>(
            context,
            "crm.clients",
            (caller, ids) => context.services.crm.clients.findByIds(caller, ids),
            order.clientId,
          ),
      },
      Query: {
        inventory: async (
          _: unknown,
          args: { offset?: number; limit?: number; inStock?: boolean | null; filters?: unknown },
          context: GraphqlContext,
        ) => {
          const page = await context.services.warehouse.stock.list(callerOf(context), {
            offset: args.offset ?? 0,
            limit: args.limit ?? 20,
            inStock: args.inStock ?? false,
            filters: args.filters ?? undefined,
          });
          return { data: page.items, total: page.total };
        },
      },
      Mutation: {
        adjustInventory: (_: unknown, args: { input: unknown }, context: GraphqlContext) =>
          context.services.warehouse.stock.adjust(callerOf(context), args.input),
        confirmOrder: (_: unknown, args: { id: string }, context: GraphqlContext) =>
          context.services.warehouse.orders.confirm(callerOf(context), args.id),
        fulfilOrder: (_: unknown, args: { id: string }, context: GraphqlContext) =>
          context.services.warehouse.orders.fulfil(callerOf(context), args.id),
        cancelOrder: (_: unknown, args: { id: string }, context: GraphqlContext) =>
          context.services.warehouse.orders.cancel(callerOf(context), args.id),
      },
    },
  ),
};
