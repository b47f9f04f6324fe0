/*
 * The browser-safe schemas of the Warehouse module: zod only (and finance's quantity and date schemas).
 * Nothing here may import a service, Prisma or Node (a test bundles this entry for the browser).
 */

export * from "./locations/locations.schema";
export * from "./orders/orders.schema";
export * from "./products/products.schema";
export * from "./stock/stock.schema";
