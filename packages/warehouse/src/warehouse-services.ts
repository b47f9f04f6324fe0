import type { RecordDeps } from "@hisob/crud";
import { createLocationsService } from "./locations/locations.service";
import { createOrdersService } from "./orders/orders.service";
import { createProductsService } from "./products/products.service";
import { createStockService } from "./stock/stock.service";

/** The Warehouse module's services, shared by every transport. */
export const createWarehouseServices = (deps: RecordDeps) => ({
  products: createProductsService(deps),
  locations: createLocationsService(deps),
  stock: createStockService(deps),
  orders: createOrdersService(deps),
});

export type WarehouseServices = ReturnType<typeof createWarehouseServices>;
