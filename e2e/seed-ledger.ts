import { createDb } from "@hisob/db";

/*
 * A long account history, fast: `count` payments and expenses posted by ONE statement through the
 * real ledger tables — each a ledger entry, its document (payment or expense) and the account's
 * balance moved by their sum — exactly the rows a posting writes (packages/finance/src/ledger/
 * post-document.ts), so reconcile stays clean. Posting 100,000 through the API one by one would take
 * tens of minutes on these machines; this takes seconds.
 *
 * The embedded database has one owner at a time: call this while the server is stopped (start the
 * server once so it migrates and creates the tenant, stop it, seed, start it again).
 */
export type SeedLedger = {
  dataDir: string;
  tenantId: string;
  accountId: string;
  userId: string;
  count: number;
  /** Dates run back from this day, one day per `perDay` entries. */
  lastDate: string;
  perDay?: number;
};

/** Every 5th entry is an expense of 300 minor units; the others payments of 1,000 + (i % 97). */
export const seedLedger = async (seed: SeedLedger): Promise<{ balance: string; ms: number }> => {
  const started = performance.now();
  const db = await createDb({ dataDir: seed.dataDir, purpose: "the 100,000-entry seed" });
  try {
    const perDay = seed.perDay ?? 50;
    const [row] = await db.withTenant(
      seed.tenantId,
      (tx) =>
        tx.$queryRaw<[{ balance: string }]>`
        WITH src AS MATERIALIZED (
          SELECT i, gen_random_uuid() AS tid, gen_random_uuid() AS did,
                 (i % 5 = 0) AS is_expense,
                 CASE WHEN i % 5 = 0 THEN 300 ELSE 1000 + i % 97 END::bigint AS amount,
                 (${seed.lastDate}::date - ((${seed.count} - i) / ${perDay})::int) AS date
            FROM generate_series(1, ${seed.count}) AS i
        ), entries AS (
          INSERT INTO transactions (id, tenant_id, type, amount, date, origin_account_id,
                                    destination_account_id, comment, created_by, created_at)
          SELECT tid, ${seed.tenantId}::uuid,
                 (CASE WHEN is_expense THEN 'expense' ELSE 'income' END)::transaction_type,
                 amount, date,
                 CASE WHEN is_expense THEN ${seed.accountId}::uuid END,
                 CASE WHEN is_expense THEN NULL ELSE ${seed.accountId}::uuid END,
                 'Entry ' || i, ${seed.userId}::uuid, now()
            FROM src
        ), payments_in AS (
          INSERT INTO payments (id, tenant_id, account_id, amount, date, comment, transaction_id,
                                created_by, created_at, updated_at)
          SELECT did, ${seed.tenantId}::uuid, ${seed.accountId}::uuid, amount, date, 'Entry ' || i, tid,
                 ${seed.userId}::uuid, now(), now()
            FROM src WHERE NOT is_expense
        ), expenses_out AS (
          INSERT INTO expenses (id, tenant_id, account_id, amount, date, comment, transaction_id,
                                created_by, created_at, updated_at)
          SELECT did, ${seed.tenantId}::uuid, ${seed.accountId}::uuid, amount, date, 'Entry ' || i, tid,
                 ${seed.userId}::uuid, now(), now()
            FROM src WHERE is_expense
        )
        UPDATE money_accounts
           SET balance = balance + (SELECT sum(CASE WHEN is_expense THEN -amount ELSE amount END) FROM src),
               updated_at = now()
         WHERE tenant_id = ${seed.tenantId}::uuid AND id = ${seed.accountId}::uuid
     RETURNING balance::text AS balance`,
    );
    if (!row) throw new Error("the account to seed was not found");
    return { balance: row.balance, ms: performance.now() - started };
  } finally {
    await db.close();
  }
};
