import { registerPermissions } from "@hisob/kernel";

/** The Warehouse module's permissions; the `admin` role of every organization gets them at start. */
export const WAREHOUSE_PERMISSIONS = registerPermissions("warehouse", {
  "products:create:all": "Create products",
  "products:read:all": "Read products",
  "products:update:all": "Update products",
  "products:delete:all": "Delete products no stock or order refers to",
  "locations:create:all": "Create warehouse locations",
  "locations:read:all": "Read warehouse locations",
  "locations:update:all": "Rename warehouse locations",
  "locations:delete:all": "Delete empty warehouse locations no order refers to",
  "stock:read:all": "Read stock per product and location",
  "stock:adjust:all": "Adjust stock after a stocktake",
  "orders:create:all": "Create purchase and sales orders",
  "orders:read:all": "Read purchase and sales orders",
  "orders:update:all": "Edit draft orders, confirm and cancel orders",
  "orders:delete:all": "Delete draft and cancelled orders",
  "orders:fulfil:all": "Fulfil confirmed orders (moves stock)",
});
