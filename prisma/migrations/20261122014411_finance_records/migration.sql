-- CreateEnum
CREATE TYPE "debt_kind" AS ENUM ('receivable', 'payable');

-- CreateEnum
CREATE TYPE "debt_status" AS ENUM ('pending', 'partial', 'settled', 'written_off');

-- CreateEnum
CREATE TYPE "inventory_movement_type" AS ENUM ('receipt', 'issue', 'adjustment');

-- CreateTable
CREATE TABLE "debts" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "kind" "debt_kind" NOT NULL,
    "counterparty_id" UUID NOT NULL,
    "amount" BIGINT NOT NULL,
    "outstanding" BIGINT NOT NULL,
    "currency_code" CHAR(3) NOT NULL,
    "due_date" DATE,
    "description" TEXT NOT NULL DEFAULT '',
    "status" "debt_status" NOT NULL DEFAULT 'pending',
    "written_off_amount" BIGINT,
    "written_off_at" TIMESTAMPTZ(3),
    "written_off_by" UUID,
    "write_off_reason" TEXT,
    "created_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "debts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "debt_settlements" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "debt_id" UUID NOT NULL,
    "payment_id" UUID,
    "expense_id" UUID,
    "amount" BIGINT NOT NULL,
    "date" DATE NOT NULL,
    "created_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "debt_settlements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inventory_items" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "unit" TEXT NOT NULL,
    "quantity" DECIMAL(20,6) NOT NULL DEFAULT 0,
    "unit_price" BIGINT NOT NULL,
    "currency_code" CHAR(3) NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "inventory_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inventory_movements" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "item_id" UUID NOT NULL,
    "type" "inventory_movement_type" NOT NULL,
    "quantity_change" DECIMAL(20,6) NOT NULL,
    "quantity_after" DECIMAL(20,6) NOT NULL,
    "date" DATE NOT NULL,
    "comment" TEXT NOT NULL DEFAULT '',
    "created_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inventory_movements_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "debts_tenant_id_status_due_date_idx" ON "debts"("tenant_id", "status", "due_date");

-- CreateIndex
CREATE INDEX "debts_tenant_id_due_date_idx" ON "debts"("tenant_id", "due_date");

-- CreateIndex
CREATE INDEX "debts_tenant_id_counterparty_id_idx" ON "debts"("tenant_id", "counterparty_id");

-- CreateIndex
CREATE INDEX "debts_tenant_id_created_at_idx" ON "debts"("tenant_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "debts_tenant_id_id_key" ON "debts"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "debt_settlements_tenant_id_debt_id_date_idx" ON "debt_settlements"("tenant_id", "debt_id", "date");

-- CreateIndex
CREATE UNIQUE INDEX "debt_settlements_tenant_id_id_key" ON "debt_settlements"("tenant_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "debt_settlements_tenant_id_payment_id_key" ON "debt_settlements"("tenant_id", "payment_id");

-- CreateIndex
CREATE UNIQUE INDEX "debt_settlements_tenant_id_expense_id_key" ON "debt_settlements"("tenant_id", "expense_id");

-- CreateIndex
CREATE INDEX "inventory_items_tenant_id_name_idx" ON "inventory_items"("tenant_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "inventory_items_tenant_id_id_key" ON "inventory_items"("tenant_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "inventory_items_tenant_id_sku_key" ON "inventory_items"("tenant_id", "sku");

-- CreateIndex
CREATE INDEX "inventory_movements_tenant_id_item_id_created_at_id_idx" ON "inventory_movements"("tenant_id", "item_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "inventory_movements_tenant_id_id_key" ON "inventory_movements"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "counterparties_tenant_id_tin_idx" ON "counterparties"("tenant_id", "tin");

-- AddForeignKey
ALTER TABLE "debts" ADD CONSTRAINT "debts_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "debts" ADD CONSTRAINT "debts_tenant_id_counterparty_id_fkey" FOREIGN KEY ("tenant_id", "counterparty_id") REFERENCES "counterparties"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "debts" ADD CONSTRAINT "debts_tenant_id_currency_code_fkey" FOREIGN KEY ("tenant_id", "currency_code") REFERENCES "tenant_currencies"("tenant_id", "currency_code") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "debt_settlements" ADD CONSTRAINT "debt_settlements_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "debt_settlements" ADD CONSTRAINT "debt_settlements_tenant_id_debt_id_fkey" FOREIGN KEY ("tenant_id", "debt_id") REFERENCES "debts"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "debt_settlements" ADD CONSTRAINT "debt_settlements_tenant_id_payment_id_fkey" FOREIGN KEY ("tenant_id", "payment_id") REFERENCES "payments"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "debt_settlements" ADD CONSTRAINT "debt_settlements_tenant_id_expense_id_fkey" FOREIGN KEY ("tenant_id", "expense_id") REFERENCES "expenses"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_tenant_id_currency_code_fkey" FOREIGN KEY ("tenant_id", "currency_code") REFERENCES "tenant_currencies"("tenant_id", "currency_code") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_movements" ADD CONSTRAINT "inventory_movements_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_movements" ADD CONSTRAINT "inventory_movements_tenant_id_item_id_fkey" FOREIGN KEY ("tenant_id", "item_id") REFERENCES "inventory_items"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Invariants the database keeps even if code forgets (hand-written: Prisma does not model CHECKs).
-- A debt's status always agrees with its outstanding amount: pending = nothing settled, partial =
-- some settled, settled = nothing outstanding, written_off = the rest forgiven (by whom, when, why).
ALTER TABLE "debts" ADD CONSTRAINT "debts_amount_check" CHECK ("amount" > 0 AND "outstanding" >= 0 AND "outstanding" <= "amount");
ALTER TABLE "debts" ADD CONSTRAINT "debts_status_check" CHECK (
  CASE "status"
    WHEN 'pending' THEN "outstanding" = "amount" AND "written_off_at" IS NULL
    WHEN 'partial' THEN "outstanding" > 0 AND "outstanding" < "amount" AND "written_off_at" IS NULL
    WHEN 'settled' THEN "outstanding" = 0 AND "written_off_at" IS NULL
    WHEN 'written_off' THEN "outstanding" = 0 AND "written_off_at" IS NOT NULL AND "written_off_by" IS NOT NULL
      AND "written_off_amount" > 0 AND "write_off_reason" <> ''
  END
);
ALTER TABLE "debts" ADD CONSTRAINT "debts_write_off_check" CHECK (
  ("status" = 'written_off') = ("written_off_at" IS NOT NULL)
  AND ("written_off_at" IS NULL) = ("written_off_by" IS NULL)
  AND ("written_off_at" IS NULL) = ("written_off_amount" IS NULL)
  AND ("written_off_at" IS NULL) = ("write_off_reason" IS NULL)
);
ALTER TABLE "debt_settlements" ADD CONSTRAINT "debt_settlements_amount_check" CHECK ("amount" > 0);
ALTER TABLE "debt_settlements" ADD CONSTRAINT "debt_settlements_document_check" CHECK (("payment_id" IS NULL) <> ("expense_id" IS NULL));
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_quantity_check" CHECK ("quantity" >= 0);
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_unit_price_check" CHECK ("unit_price" >= 0);
ALTER TABLE "inventory_movements" ADD CONSTRAINT "inventory_movements_quantity_check" CHECK (
  "quantity_after" >= 0 AND CASE "type"
    WHEN 'receipt' THEN "quantity_change" > 0
    WHEN 'issue' THEN "quantity_change" < 0
    WHEN 'adjustment' THEN "quantity_change" <> 0
  END
);

-- Row-level security (hand-written: Prisma does not model it).
SELECT hisob_protect_tenant_table('debts');
SELECT hisob_protect_tenant_table('debt_settlements');
SELECT hisob_protect_tenant_table('inventory_items');
SELECT hisob_protect_tenant_table('inventory_movements');
