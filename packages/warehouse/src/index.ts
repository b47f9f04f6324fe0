export * from "./locations/locations.schema";
export * from "./orders/orders.schema";
export * from "./products/products.schema";
export * from "./stock/stock.schema";
export { warehouseOperations } from "./warehouse.operations";
export { WAREHOUSE_PERMISSIONS } from "./warehouse.permissions";
export { createWarehouseServices, type WarehouseServices } from "./warehouse-services";
