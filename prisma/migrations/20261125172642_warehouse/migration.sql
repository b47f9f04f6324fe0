-- CreateEnum
CREATE TYPE "WarehouseOrderKind" AS ENUM ('purchase', 'sales');

-- CreateEnum
CREATE TYPE "WarehouseOrderStatus" AS ENUM ('draft', 'confirmed', 'fulfilled', 'cancelled');

-- CreateTable
CREATE TABLE "warehouse_products" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "sku" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "unit" TEXT NOT NULL,
    "price" BIGINT NOT NULL,
    "currency_code" CHAR(3) NOT NULL,
    "barcode" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "warehouse_products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "warehouse_locations" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "warehouse_locations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "warehouse_stock" (
    "tenant_id" UUID NOT NULL,
    "product_id" UUID NOT NULL,
    "location_id" UUID NOT NULL,
    "quantity" DECIMAL(20,6) NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "warehouse_stock_pkey" PRIMARY KEY ("tenant_id","product_id","location_id")
);

-- CreateTable
CREATE TABLE "warehouse_orders" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "kind" "WarehouseOrderKind" NOT NULL,
    "status" "WarehouseOrderStatus" NOT NULL DEFAULT 'draft',
    "location_id" UUID NOT NULL,
    "client_id" UUID,
    "currency_code" CHAR(3) NOT NULL,
    "date" DATE NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "total" BIGINT NOT NULL DEFAULT 0,
    "created_by" UUID NOT NULL,
    "confirmed_at" TIMESTAMPTZ(3),
    "fulfilled_at" TIMESTAMPTZ(3),
    "cancelled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "warehouse_orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "warehouse_order_lines" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "product_id" UUID NOT NULL,
    "quantity" DECIMAL(20,6) NOT NULL,
    "unit_price" BIGINT NOT NULL,

    CONSTRAINT "warehouse_order_lines_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "warehouse_products_tenant_id_name_idx" ON "warehouse_products"("tenant_id", "name");

-- CreateIndex
CREATE INDEX "warehouse_products_tenant_id_barcode_idx" ON "warehouse_products"("tenant_id", "barcode");

-- CreateIndex
CREATE UNIQUE INDEX "warehouse_products_tenant_id_id_key" ON "warehouse_products"("tenant_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "warehouse_products_tenant_id_sku_key" ON "warehouse_products"("tenant_id", "sku");

-- CreateIndex
CREATE UNIQUE INDEX "warehouse_locations_tenant_id_id_key" ON "warehouse_locations"("tenant_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "warehouse_locations_tenant_id_code_key" ON "warehouse_locations"("tenant_id", "code");

-- CreateIndex
CREATE INDEX "warehouse_stock_tenant_id_location_id_idx" ON "warehouse_stock"("tenant_id", "location_id");

-- CreateIndex
CREATE INDEX "warehouse_orders_tenant_id_status_date_idx" ON "warehouse_orders"("tenant_id", "status", "date");

-- CreateIndex
CREATE INDEX "warehouse_orders_tenant_id_client_id_idx" ON "warehouse_orders"("tenant_id", "client_id");

-- CreateIndex
CREATE UNIQUE INDEX "warehouse_orders_tenant_id_id_key" ON "warehouse_orders"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "warehouse_order_lines_tenant_id_product_id_idx" ON "warehouse_order_lines"("tenant_id", "product_id");

-- CreateIndex
CREATE UNIQUE INDEX "warehouse_order_lines_tenant_id_id_key" ON "warehouse_order_lines"("tenant_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "warehouse_order_lines_tenant_id_order_id_position_key" ON "warehouse_order_lines"("tenant_id", "order_id", "position");

-- AddForeignKey
ALTER TABLE "warehouse_products" ADD CONSTRAINT "warehouse_products_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "warehouse_products" ADD CONSTRAINT "warehouse_products_tenant_id_currency_code_fkey" FOREIGN KEY ("tenant_id", "currency_code") REFERENCES "tenant_currencies"("tenant_id", "currency_code") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "warehouse_locations" ADD CONSTRAINT "warehouse_locations_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "warehouse_stock" ADD CONSTRAINT "warehouse_stock_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "warehouse_stock" ADD CONSTRAINT "warehouse_stock_tenant_id_product_id_fkey" FOREIGN KEY ("tenant_id", "product_id") REFERENCES "warehouse_products"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "warehouse_stock" ADD CONSTRAINT "warehouse_stock_tenant_id_location_id_fkey" FOREIGN KEY ("tenant_id", "location_id") REFERENCES "warehouse_locations"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "warehouse_orders" ADD CONSTRAINT "warehouse_orders_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "warehouse_orders" ADD CONSTRAINT "warehouse_orders_tenant_id_location_id_fkey" FOREIGN KEY ("tenant_id", "location_id") REFERENCES "warehouse_locations"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "warehouse_orders" ADD CONSTRAINT "warehouse_orders_tenant_id_client_id_fkey" FOREIGN KEY ("tenant_id", "client_id") REFERENCES "crm_clients"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "warehouse_orders" ADD CONSTRAINT "warehouse_orders_tenant_id_currency_code_fkey" FOREIGN KEY ("tenant_id", "currency_code") REFERENCES "tenant_currencies"("tenant_id", "currency_code") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "warehouse_order_lines" ADD CONSTRAINT "warehouse_order_lines_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "warehouse_order_lines" ADD CONSTRAINT "warehouse_order_lines_tenant_id_order_id_fkey" FOREIGN KEY ("tenant_id", "order_id") REFERENCES "warehouse_orders"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "warehouse_order_lines" ADD CONSTRAINT "warehouse_order_lines_tenant_id_product_id_fkey" FOREIGN KEY ("tenant_id", "product_id") REFERENCES "warehouse_products"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- Invariants the database keeps even if code forgets (hand-written: Prisma does not model CHECKs).
ALTER TABLE "warehouse_products" ADD CONSTRAINT "warehouse_products_price_check" CHECK ("price" >= 0);
-- Stock never goes below zero: a fulfilment that would take it there fails as a whole.
ALTER TABLE "warehouse_stock" ADD CONSTRAINT "warehouse_stock_quantity_check" CHECK ("quantity" >= 0);
ALTER TABLE "warehouse_order_lines" ADD CONSTRAINT "warehouse_order_lines_quantity_check" CHECK ("quantity" > 0);
ALTER TABLE "warehouse_order_lines" ADD CONSTRAINT "warehouse_order_lines_unit_price_check" CHECK ("unit_price" >= 0);
ALTER TABLE "warehouse_orders" ADD CONSTRAINT "warehouse_orders_total_check" CHECK ("total" >= 0);
ALTER TABLE "warehouse_orders" ADD CONSTRAINT "warehouse_orders_status_check" CHECK (
  ("status" = 'fulfilled') = ("fulfilled_at" IS NOT NULL)
  AND ("status" = 'cancelled') = ("cancelled_at" IS NOT NULL)
  AND (("status" = 'draft') = ("confirmed_at" IS NULL) OR "status" = 'cancelled')
);

-- Row-level security (hand-written: Prisma does not model it).
SELECT hisob_protect_tenant_table('warehouse_products');
SELECT hisob_protect_tenant_table('warehouse_locations');
SELECT hisob_protect_tenant_table('warehouse_stock');
SELECT hisob_protect_tenant_table('warehouse_orders');
SELECT hisob_protect_tenant_table('warehouse_order_lines');
