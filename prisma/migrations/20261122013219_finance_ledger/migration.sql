-- CreateEnum
CREATE TYPE "transaction_type" AS ENUM ('income', 'expense', 'transfer', 'exchange');

-- CreateEnum
CREATE TYPE "counterparty_type" AS ENUM ('customer', 'supplier', 'both', 'other');

-- CreateTable
CREATE TABLE "money_accounts" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "number" TEXT NOT NULL DEFAULT '',
    "currency_code" CHAR(3) NOT NULL,
    "balance" BIGINT NOT NULL DEFAULT 0,
    "allow_overdraft" BOOLEAN NOT NULL DEFAULT false,
    "description" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "money_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transactions" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "type" "transaction_type" NOT NULL,
    "amount" BIGINT NOT NULL,
    "destination_amount" BIGINT,
    "exchange_rate" DECIMAL(24,12),
    "date" DATE NOT NULL,
    "origin_account_id" UUID,
    "destination_account_id" UUID,
    "comment" TEXT NOT NULL DEFAULT '',
    "created_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "counterparties" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "tin" TEXT NOT NULL DEFAULT '',
    "type" "counterparty_type" NOT NULL DEFAULT 'customer',
    "phone" TEXT NOT NULL DEFAULT '',
    "email" TEXT NOT NULL DEFAULT '',
    "address" TEXT NOT NULL DEFAULT '',
    "notes" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "counterparties_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_categories" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "parent_id" UUID,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payment_categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "expense_categories" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "parent_id" UUID,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "expense_categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payments" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "counterparty_id" UUID,
    "category_id" UUID,
    "amount" BIGINT NOT NULL,
    "date" DATE NOT NULL,
    "comment" TEXT NOT NULL DEFAULT '',
    "transaction_id" UUID NOT NULL,
    "created_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "expenses" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "counterparty_id" UUID,
    "category_id" UUID,
    "amount" BIGINT NOT NULL,
    "date" DATE NOT NULL,
    "comment" TEXT NOT NULL DEFAULT '',
    "transaction_id" UUID NOT NULL,
    "created_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "expenses_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "money_accounts_tenant_id_id_key" ON "money_accounts"("tenant_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "money_accounts_tenant_id_name_key" ON "money_accounts"("tenant_id", "name");

-- CreateIndex
CREATE INDEX "transactions_tenant_id_origin_account_id_date_id_idx" ON "transactions"("tenant_id", "origin_account_id", "date", "id");

-- CreateIndex
CREATE INDEX "transactions_tenant_id_destination_account_id_date_id_idx" ON "transactions"("tenant_id", "destination_account_id", "date", "id");

-- CreateIndex
CREATE INDEX "transactions_tenant_id_date_id_idx" ON "transactions"("tenant_id", "date", "id");

-- CreateIndex
CREATE UNIQUE INDEX "transactions_tenant_id_id_key" ON "transactions"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "counterparties_tenant_id_name_idx" ON "counterparties"("tenant_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "counterparties_tenant_id_id_key" ON "counterparties"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "payment_categories_tenant_id_parent_id_idx" ON "payment_categories"("tenant_id", "parent_id");

-- CreateIndex
CREATE UNIQUE INDEX "payment_categories_tenant_id_id_key" ON "payment_categories"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "expense_categories_tenant_id_parent_id_idx" ON "expense_categories"("tenant_id", "parent_id");

-- CreateIndex
CREATE UNIQUE INDEX "expense_categories_tenant_id_id_key" ON "expense_categories"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "payments_tenant_id_date_id_idx" ON "payments"("tenant_id", "date", "id");

-- CreateIndex
CREATE INDEX "payments_tenant_id_account_id_idx" ON "payments"("tenant_id", "account_id");

-- CreateIndex
CREATE INDEX "payments_tenant_id_counterparty_id_idx" ON "payments"("tenant_id", "counterparty_id");

-- CreateIndex
CREATE INDEX "payments_tenant_id_category_id_idx" ON "payments"("tenant_id", "category_id");

-- CreateIndex
CREATE INDEX "payments_tenant_id_created_by_idx" ON "payments"("tenant_id", "created_by");

-- CreateIndex
CREATE UNIQUE INDEX "payments_tenant_id_id_key" ON "payments"("tenant_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "payments_tenant_id_transaction_id_key" ON "payments"("tenant_id", "transaction_id");

-- CreateIndex
CREATE INDEX "expenses_tenant_id_date_id_idx" ON "expenses"("tenant_id", "date", "id");

-- CreateIndex
CREATE INDEX "expenses_tenant_id_account_id_idx" ON "expenses"("tenant_id", "account_id");

-- CreateIndex
CREATE INDEX "expenses_tenant_id_counterparty_id_idx" ON "expenses"("tenant_id", "counterparty_id");

-- CreateIndex
CREATE INDEX "expenses_tenant_id_category_id_idx" ON "expenses"("tenant_id", "category_id");

-- CreateIndex
CREATE INDEX "expenses_tenant_id_created_by_idx" ON "expenses"("tenant_id", "created_by");

-- CreateIndex
CREATE UNIQUE INDEX "expenses_tenant_id_id_key" ON "expenses"("tenant_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "expenses_tenant_id_transaction_id_key" ON "expenses"("tenant_id", "transaction_id");

-- AddForeignKey
ALTER TABLE "money_accounts" ADD CONSTRAINT "money_accounts_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "money_accounts" ADD CONSTRAINT "money_accounts_tenant_id_currency_code_fkey" FOREIGN KEY ("tenant_id", "currency_code") REFERENCES "tenant_currencies"("tenant_id", "currency_code") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_tenant_id_origin_account_id_fkey" FOREIGN KEY ("tenant_id", "origin_account_id") REFERENCES "money_accounts"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_tenant_id_destination_account_id_fkey" FOREIGN KEY ("tenant_id", "destination_account_id") REFERENCES "money_accounts"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "counterparties" ADD CONSTRAINT "counterparties_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_categories" ADD CONSTRAINT "payment_categories_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_categories" ADD CONSTRAINT "payment_categories_tenant_id_parent_id_fkey" FOREIGN KEY ("tenant_id", "parent_id") REFERENCES "payment_categories"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "expense_categories" ADD CONSTRAINT "expense_categories_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "expense_categories" ADD CONSTRAINT "expense_categories_tenant_id_parent_id_fkey" FOREIGN KEY ("tenant_id", "parent_id") REFERENCES "expense_categories"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_tenant_id_account_id_fkey" FOREIGN KEY ("tenant_id", "account_id") REFERENCES "money_accounts"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_tenant_id_counterparty_id_fkey" FOREIGN KEY ("tenant_id", "counterparty_id") REFERENCES "counterparties"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_tenant_id_category_id_fkey" FOREIGN KEY ("tenant_id", "category_id") REFERENCES "payment_categories"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_tenant_id_transaction_id_fkey" FOREIGN KEY ("tenant_id", "transaction_id") REFERENCES "transactions"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "expenses" ADD CONSTRAINT "expenses_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "expenses" ADD CONSTRAINT "expenses_tenant_id_account_id_fkey" FOREIGN KEY ("tenant_id", "account_id") REFERENCES "money_accounts"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "expenses" ADD CONSTRAINT "expenses_tenant_id_counterparty_id_fkey" FOREIGN KEY ("tenant_id", "counterparty_id") REFERENCES "counterparties"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "expenses" ADD CONSTRAINT "expenses_tenant_id_category_id_fkey" FOREIGN KEY ("tenant_id", "category_id") REFERENCES "expense_categories"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "expenses" ADD CONSTRAINT "expenses_tenant_id_transaction_id_fkey" FOREIGN KEY ("tenant_id", "transaction_id") REFERENCES "transactions"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- Ledger invariants the database keeps even if code forgets (hand-written: Prisma does not model CHECKs).
ALTER TABLE "money_accounts" ADD CONSTRAINT "money_accounts_overdraft_check" CHECK ("allow_overdraft" OR "balance" >= 0);
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_amount_check" CHECK ("amount" > 0 AND ("destination_amount" IS NULL OR "destination_amount" > 0));
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_shape_check" CHECK (
  CASE "type"
    WHEN 'income' THEN "origin_account_id" IS NULL AND "destination_account_id" IS NOT NULL AND "destination_amount" IS NULL AND "exchange_rate" IS NULL
    WHEN 'expense' THEN "origin_account_id" IS NOT NULL AND "destination_account_id" IS NULL AND "destination_amount" IS NULL AND "exchange_rate" IS NULL
    WHEN 'transfer' THEN "origin_account_id" IS NOT NULL AND "destination_account_id" IS NOT NULL AND "origin_account_id" <> "destination_account_id" AND "destination_amount" IS NULL AND "exchange_rate" IS NULL
    WHEN 'exchange' THEN "origin_account_id" IS NOT NULL AND "destination_account_id" IS NOT NULL AND "origin_account_id" <> "destination_account_id" AND "destination_amount" IS NOT NULL AND "exchange_rate" > 0
  END
);
ALTER TABLE "payments" ADD CONSTRAINT "payments_amount_check" CHECK ("amount" > 0);
ALTER TABLE "expenses" ADD CONSTRAINT "expenses_amount_check" CHECK ("amount" > 0);
ALTER TABLE "payment_categories" ADD CONSTRAINT "payment_categories_not_own_parent_check" CHECK ("parent_id" IS NULL OR "parent_id" <> "id");
ALTER TABLE "expense_categories" ADD CONSTRAINT "expense_categories_not_own_parent_check" CHECK ("parent_id" IS NULL OR "parent_id" <> "id");

-- Row-level security (hand-written: Prisma does not model it).
SELECT hisob_protect_tenant_table('money_accounts');
SELECT hisob_protect_tenant_table('transactions');
SELECT hisob_protect_tenant_table('counterparties');
SELECT hisob_protect_tenant_table('payment_categories');
SELECT hisob_protect_tenant_table('expense_categories');
SELECT hisob_protect_tenant_table('payments');
SELECT hisob_protect_tenant_table('expenses');
