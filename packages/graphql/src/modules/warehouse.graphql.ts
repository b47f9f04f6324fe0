import { crmOperations, type TClientDto } from "@hisob/crm";
import {
  type TLocationDto,
  type TOrderDto,
  type TProductDto,
  type TStockLevelDto,
  warehouseOperations,
} from "@hisob/warehouse";
import { elementOf, fieldOf, pageArgsSdl, permissionsOf } from "../catalog-sdl";
import type { GraphqlContext, GraphqlServices } from "../context";
import { operationField, operationFieldsOf } from "../operations";
import { loadRecord, mergeResolvers, recordResolvers, recordSdl } from "../records";
import type { GraphqlModule } from "../registry";
import { enumTypeSdl, inputTypeSdl, objectTypeSdl } from "../zod-sdl";

/*
 * Warehouse: products, locations, inventory (stock per product per location) and purchase/sales orders.
 * Products, locations and orders are records of the building block; stock moves only through order
 * fulfilment and stocktake adjustments. Every type, input and permission is the catalog's
 * (docs/decisions/0114-a-codebase-a-newcomer-can-carry-on-continued.md).
 */

const { products, locations, orders, stock } = warehouseOperations;
const services = (all: GraphqlServices) => all.warehouse;

/** An order's move to its next status, as the catalog declares it (`orders.confirm`, …). */
const transition = (
  name: string,
  operation: typeof orders.confirm,
  description: (permissions: string) => string,
) => operationField({ name, operation, services, args: "id: ID!", returns: "Order!", description });

const stockFields = {
  query: operationFieldsOf("Query", [
    operationField({
      name: "inventory",
      operation: stock.list,
      services,
      args: `${pageArgsSdl(stock.list.input)}, inStock: Boolean = false, filters: [Filter!]`,
      returns: "PaginatedInventory!",
      description: (permissions) =>
        `Stock per product per location (${permissions}). Filters: productId, locationId (eq, in).`,
      // GraphQL's explicit nulls are "not given", as the list's defaults read them.
      input: (args) => ({
        offset: args.offset ?? undefined,
        limit: args.limit ?? undefined,
        inStock: args.inStock ?? false,
        filters: args.filters ?? undefined,
      }),
      answer: (page) => ({ data: page.items, total: page.total }),
    }),
  ]),
  mutation: operationFieldsOf("Mutation", [
    operationField({
      name: "adjustInventory",
      operation: stock.adjust,
      services,
      args: "input: InventoryAdjustmentInput!",
      returns: "Inventory!",
      description: (permissions) => `Corrects stock after a stocktake (${permissions}); never below zero.`,
      input: (args) => args.input,
    }),
    transition("confirmOrder", orders.confirm, (permissions) => `draft → confirmed (${permissions}).`),
    transition(
      "fulfilOrder",
      orders.fulfil,
      (permissions) =>
        `confirmed → fulfilled, moving the stock in the same transaction (${permissions}); BUSINESS_RULE warehouse.insufficient_stock when a sale would take any product below zero.`,
    ),
    transition(
      "cancelOrder",
      orders.cancel,
      (permissions) => `draft or confirmed → cancelled (${permissions}).`,
    ),
  ]),
};

const typeDefs = /* GraphQL */ `
${objectTypeSdl("Inventory", stock.adjust.output, {
  description: "How much of a product is at a location (never below zero).",
  fields: { quantity: { description: "Exact decimal string, e.g. 12.5." } },
  extra: `    product: Product
    location: Location
`,
})}
  type PaginatedInventory {
    data: [Inventory!]!
    total: Int64!
  }

${inputTypeSdl("InventoryAdjustmentInput", stock.adjust.input, {
  description: "A stocktake correction.",
  fields: { change: { description: "Signed decimal string: -2 takes two away." } },
})}
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
${stockFields.query.sdl}
${stockFields.mutation.sdl}
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
    stockFields.query.resolvers,
    stockFields.mutation.resolvers,
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
    },
  ),
};
