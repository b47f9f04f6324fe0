-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "counterparty_id" UUID,
ADD COLUMN     "reversal_of_id" UUID,
ADD COLUMN     "reversal_reason" TEXT,
ALTER COLUMN "exchange_rate" SET DATA TYPE DECIMAL(40,20);

-- CreateIndex
CREATE UNIQUE INDEX "transactions_tenant_id_reversal_of_id_key" ON "transactions"("tenant_id", "reversal_of_id");

-- AddForeignKey
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_tenant_id_counterparty_id_fkey" FOREIGN KEY ("tenant_id", "counterparty_id") REFERENCES "counterparties"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_tenant_id_reversal_of_id_fkey" FOREIGN KEY ("tenant_id", "reversal_of_id") REFERENCES "transactions"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- Hand-written (Prisma does not model CHECKs or seed rows):
-- a reversal names why, and only transfers and exchanges are reversed or carry a counterparty.
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_reversal_check" CHECK (
  ("reversal_of_id" IS NULL) = ("reversal_reason" IS NULL)
  AND ("type"::text IN ('transfer', 'exchange') OR ("reversal_of_id" IS NULL AND "counterparty_id" IS NULL))
);

-- Deleting a counterparty checks this foreign key: an index keeps that an index probe.
CREATE INDEX "transactions_tenant_id_counterparty_id_idx" ON "transactions"("tenant_id", "counterparty_id")
  WHERE "counterparty_id" IS NOT NULL;

-- The Kuwaiti dinar: a currency of three minor digits (ISO 4217), beside UZS/USD (2) and JPY (0).
INSERT INTO currencies (code, name, symbol, minor_units) VALUES ('KWD', 'Kuwaiti dinar', 'KD', 3)
  ON CONFLICT (code) DO NOTHING;
