-- AlterEnum
ALTER TYPE "transaction_type" ADD VALUE 'opening_balance';

-- The ledger's shape check learns the opening balance (hand-written: Prisma does not model CHECKs).
-- "type"::text, not the enum literal: a value added by ALTER TYPE cannot be used in its own transaction.
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_shape_check";
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_shape_check" CHECK (
  CASE "type"::text
    WHEN 'income' THEN "origin_account_id" IS NULL AND "destination_account_id" IS NOT NULL AND "destination_amount" IS NULL AND "exchange_rate" IS NULL
    WHEN 'expense' THEN "origin_account_id" IS NOT NULL AND "destination_account_id" IS NULL AND "destination_amount" IS NULL AND "exchange_rate" IS NULL
    WHEN 'transfer' THEN "origin_account_id" IS NOT NULL AND "destination_account_id" IS NOT NULL AND "origin_account_id" <> "destination_account_id" AND "destination_amount" IS NULL AND "exchange_rate" IS NULL
    WHEN 'exchange' THEN "origin_account_id" IS NOT NULL AND "destination_account_id" IS NOT NULL AND "origin_account_id" <> "destination_account_id" AND "destination_amount" IS NOT NULL AND "exchange_rate" > 0
    -- Exactly one side: into the account, or (an account that starts owing) out of it.
    WHEN 'opening_balance' THEN ("origin_account_id" IS NULL) <> ("destination_account_id" IS NULL) AND "destination_amount" IS NULL AND "exchange_rate" IS NULL
  END
);

