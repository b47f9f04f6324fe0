-- CreateTable
CREATE TABLE "account_day_totals" (
    "tenant_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "entries" INTEGER NOT NULL DEFAULT 0,
    "change" BIGINT NOT NULL DEFAULT 0,
    "opening" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "account_day_totals_pkey" PRIMARY KEY ("tenant_id","account_id","date")
);

-- AddForeignKey
ALTER TABLE "account_day_totals" ADD CONSTRAINT "account_day_totals_tenant_id_account_id_fkey" FOREIGN KEY ("tenant_id", "account_id") REFERENCES "money_accounts"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written (Prisma does not model policies, functions or triggers).
--
-- The checkpoints follow the ledger in the writing transaction: one statement-level trigger per
-- event folds the statement's changed rows (its transition tables: new rows count +1, old rows -1)
-- into per-account, per-day sums, so a bulk insert costs one upsert, not one per row. Each leg is
-- what the account statement shows: the origin loses `amount`, the destination gains
-- `destination_amount` (or `amount`). Opening balances are where an account starts, not entries:
-- their change is kept apart (`opening`) and they are not counted. Rows are upserted in key order,
-- so two writers that touch the same days lock them in the same order; a day whose sums do not
-- change (a comment edited) is not touched at all.
CREATE OR REPLACE FUNCTION hisob_account_day_totals() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE format($q$
    WITH changed AS (%s),
    legs AS (
      SELECT tenant_id, origin_account_id AS account_id, date, type = 'opening_balance' AS opening,
             k, -k * amount AS moved
        FROM changed WHERE origin_account_id IS NOT NULL
      UNION ALL
      SELECT tenant_id, destination_account_id, date, type = 'opening_balance',
             k, k * COALESCE(destination_amount, amount)
        FROM changed WHERE destination_account_id IS NOT NULL
    ), days AS (
      SELECT tenant_id, account_id, date,
             COALESCE(sum(k) FILTER (WHERE NOT opening), 0)::int AS entries,
             COALESCE(sum(moved) FILTER (WHERE NOT opening), 0)::bigint AS change,
             COALESCE(sum(moved) FILTER (WHERE opening), 0)::bigint AS opening
        FROM legs
       GROUP BY tenant_id, account_id, date
    )
    INSERT INTO account_day_totals AS d (tenant_id, account_id, date, entries, change, opening)
    SELECT tenant_id, account_id, date, entries, change, opening
      FROM days
     WHERE entries <> 0 OR change <> 0 OR opening <> 0
     ORDER BY tenant_id, account_id, date
    ON CONFLICT (tenant_id, account_id, date) DO UPDATE
       SET entries = d.entries + EXCLUDED.entries,
           change = d.change + EXCLUDED.change,
           opening = d.opening + EXCLUDED.opening
  $q$, CASE TG_OP
         WHEN 'INSERT' THEN 'SELECT 1 AS k, t.* FROM new_rows t'
         WHEN 'DELETE' THEN 'SELECT -1 AS k, t.* FROM old_rows t'
         ELSE 'SELECT -1 AS k, t.* FROM old_rows t UNION ALL SELECT 1, t.* FROM new_rows t'
       END);
  RETURN NULL;
END
$fn$;

CREATE TRIGGER transactions_day_totals_insert AFTER INSERT ON transactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hisob_account_day_totals();
CREATE TRIGGER transactions_day_totals_update AFTER UPDATE ON transactions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hisob_account_day_totals();
CREATE TRIGGER transactions_day_totals_delete AFTER DELETE ON transactions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hisob_account_day_totals();

-- What is already posted. Row-level security binds the owner too, so the owner lifts it on
-- `transactions` for this one statement and restores it in the same migration transaction.
ALTER TABLE transactions NO FORCE ROW LEVEL SECURITY;
INSERT INTO account_day_totals (tenant_id, account_id, date, entries, change, opening)
SELECT tenant_id, account_id, date,
       count(*) FILTER (WHERE NOT opening)::int,
       COALESCE(sum(moved) FILTER (WHERE NOT opening), 0)::bigint,
       COALESCE(sum(moved) FILTER (WHERE opening), 0)::bigint
  FROM (
    SELECT tenant_id, origin_account_id AS account_id, date, type = 'opening_balance' AS opening,
           -amount AS moved
      FROM transactions WHERE origin_account_id IS NOT NULL
    UNION ALL
    SELECT tenant_id, destination_account_id, date, type = 'opening_balance',
           COALESCE(destination_amount, amount)
      FROM transactions WHERE destination_account_id IS NOT NULL
  ) legs
 GROUP BY tenant_id, account_id, date;
ALTER TABLE transactions FORCE ROW LEVEL SECURITY;

-- One tenant's rows only, like every tenant-owned table.
SELECT hisob_protect_tenant_table('account_day_totals');
