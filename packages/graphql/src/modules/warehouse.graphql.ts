import { crmOperations, type TClientDto } from "@hisob/crm";
import {
  type TLocationDto,
  type TOrderDto,
  type TProductDto,
  type TStockLevelDto,
  warehouseOperations,
} from "@hisob/warehouse";
import { elementOf, fieldOf, permissionsOf } from "../catalog-sdl";
import { callerOf, type GraphqlContext } from "../context";
import { loadRecord, mergeResolvers, recordResolvers, recordSdl } from "../records";
import type { GraphqlModule } from "../registry";
import { enumTypeSdl, inputTypeSdl, objectTypeSdl } from "../zod-sdl";

/*
 * Warehouse: products, locations, inventory (stock per product per location) and purchase/sales orders.
 * Products, locations and orders are records of the building block; stock moves only through order
 * fulfilment and stocktake adjustments.
 */

const { products, locations, orders } = warehouseOperations;

const typeDefs = /* GraphQL */ `
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

${enumTypeSdl("OrderKind", fieldOf(orders.get.output, "kind"), {
  values: {
    purchase: "Goods come in: fulfilling adds stock.",
    sales: "Goods go out: fulfilling takes stock.",
  },
})}
${enumTypeSdl("OrderStatus", fieldOf(orders.get.output, "status"))}
${objectTypeSdl("OrderLine", elementOf(fieldOf(orders.get.output, "lines"), "Order.lines"), {
  fields: {
    unitPrice: { type: "Int64", description: "Minor units of the order's currency per unit." },
    amount: { type: "Int64", description: "quantity × unitPrice, rounded half up." },
  },
  extra: `    product: Product
`,
})}
${inputTypeSdl("OrderLineInput", elementOf(fieldOf(orders.create.input, "lines"), "OrderInput.lines"), {
  fields: {
    quantity: { description: "Decimal string > 0." },
    unitPrice: {
      type: "Int64",
      description: "Default: the product's price when it is in the order's currency.",
    },
  },
})}
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
  operations: products,
  types: {
    item: {
      description: "Goods the organization keeps in its warehouse (their quantity lives only in Inventory).",
      fields: {
        sku: { description: "Unique per organization." },
        price: { type: "Int64", description: "Minor units of currency per unit." },
      },
    },
    input: { fields: { price: "Int64" } },
    patch: { fields: { price: "Int64" } },
  },
  filterFields: ["sku", "name", "barcode", "currency", "price", "createdAt"],
})}
${recordSdl({
  type: "Location",
  plural: "locations",
  operations: locations,
  types: { item: { description: "A place goods are kept: a warehouse, a shop, a zone." } },
  filterFields: ["code", "name"],
})}
${recordSdl({
  type: "Order",
  plural: "orders",
  operations: orders,
  types: {
    item: {
      description: "A purchase or sales order: draft → confirmed → fulfilled, or cancelled.",
      fields: {
        kind: "OrderKind",
        status: "OrderStatus",
        date: { description: "YYYY-MM-DD" },
        total: "Int64",
        lines: "OrderLine",
      },
      extra: `    location: Location
    "Needs ${permissionsOf(crmOperations.clients.get)}."
    client: Client
`,
    },
    input: { fields: { kind: "OrderKind", lines: "OrderLineInput" } },
    patch: {
      description: "Only a draft changes; lines replaces them all.",
      fields: { lines: "OrderLineInput" },
    },
  },
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
