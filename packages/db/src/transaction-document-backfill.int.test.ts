// The transaction_document migration on a database that already holds payments and expenses: every
// entry a document posted must get that document's id (an account statement reads it from the entry),
// nothing else may change, and the walls and the checkpoints' trigger must be as they were. Every
// other test database migrates empty, so this is where the fill runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, readMigrations } from "./migrate";
import { connectPostgres, pgliteConnection, type SqlConnection } from "./sql-connection";
import { createEmptyTestDatabase } from "./testing";

const DOCUMENT_IDS = "20261126090000_transaction_document";
const TENANT = "0192f000-0000-7000-8000-000000000001";
const CASH = "0192f000-0000-7000-8000-0000000000a1";
const BANK = "0192f000-0000-7000-8000-0000000000a2";
const USER = "0192f000-0000-7000-8000-0000000000f1";
const id = (n: number) => `0192f000-0000-7000-8000-${String(n).padStart(12, "0")}`;

let scratch: Awaited<ReturnType<typeof createEmptyTestDatabase>>;
let conn: SqlConnection;
let checkpointsBefore: unknown[];

const CHECKPOINTS = `SELECT account_id::text, date::text, entries, change::text, opening::text
                       FROM account_day_totals ORDER BY account_id, date`;

beforeAll(async () => {
  scratch = await createEmptyTestDatabase();
  conn = scratch.pglite ? pgliteConnection(scratch.pglite) : await connectPostgres(scratch.url ?? "");
  const all = readMigrations();
  await migrate(conn, { migrations: all.filter((m) => m.name < DOCUMENT_IDS) });
  // Books posted before entries carried their document (as the database owner: no tenant scope).
  await conn.exec(`
    INSERT INTO tenants (id, name, updated_at) VALUES ('${TENANT}', 'Before', now());
    INSERT INTO tenant_currencies (tenant_id, currency_code) VALUES ('${TENANT}', 'UZS');
    INSERT INTO money_accounts (id, tenant_id, name, currency_code, balance, updated_at) VALUES
      ('${CASH}', '${TENANT}', 'Cash', 'UZS', 0, now()), ('${BANK}', '${TENANT}', 'Bank', 'UZS', 0, now());
    INSERT INTO transactions (id, tenant_id, type, amount, date, origin_account_id, destination_account_id, created_by) VALUES
      ('${id(1)}', '${TENANT}', 'opening_balance', 500000, '2026-01-01', NULL, '${CASH}', '${USER}'),
      ('${id(2)}', '${TENANT}', 'income', 120000, '2026-01-01', NULL, '${CASH}', '${USER}'),
      ('${id(3)}', '${TENANT}', 'expense', 45000, '2026-01-02', '${CASH}', NULL, '${USER}'),
      ('${id(4)}', '${TENANT}', 'transfer', 10000, '2026-01-02', '${CASH}', '${BANK}', '${USER}'),
      ('${id(5)}', '${TENANT}', 'income', 7000, '2026-01-03', NULL, '${BANK}', '${USER}');
    INSERT INTO payments (id, tenant_id, account_id, amount, date, transaction_id, created_by, updated_at) VALUES
      ('${id(12)}', '${TENANT}', '${CASH}', 120000, '2026-01-01', '${id(2)}', '${USER}', now());
    INSERT INTO expenses (id, tenant_id, account_id, amount, date, transaction_id, created_by, updated_at) VALUES
      ('${id(13)}', '${TENANT}', '${CASH}', 45000, '2026-01-02', '${id(3)}', '${USER}', now());
  `);
  checkpointsBefore = await conn.query(CHECKPOINTS);
  await migrate(conn, { migrations: all });
});

afterAll(async () => {
  await conn?.close().catch(() => {});
  await scratch?.drop();
});

describe("transactions.document_id on a database with documents", () => {
  it("gives every entry a document posted that document's id, and no other entry one", async () => {
    const rows = await conn.query<{ id: string; document_id: string | null }>(
      "SELECT id::text, document_id::text FROM transactions ORDER BY id",
    );
    expect(rows).toEqual([
      { id: id(1), document_id: null }, // an opening balance has no document
      { id: id(2), document_id: id(12) }, // the payment
      { id: id(3), document_id: id(13) }, // the expense
      { id: id(4), document_id: null }, // a transfer has none
      { id: id(5), document_id: null }, // an income posted without a payment
    ]);
  });

  it("changes no balance checkpoint and leaves their trigger on", async () => {
    expect(await conn.query(CHECKPOINTS)).toEqual(checkpointsBefore);
    const [trigger] = await conn.query<{ enabled: string }>(
      "SELECT tgenabled AS enabled FROM pg_trigger WHERE tgname = 'transactions_day_totals_update'",
    );
    expect(trigger?.enabled).toBe("O");
  });

  it("leaves row-level security forced on the ledger and the documents", async () => {
    const rows = await conn.query<{ table: string; forced: boolean }>(
      `SELECT relname AS "table", relforcerowsecurity AS forced FROM pg_class
        WHERE relname IN ('transactions', 'payments', 'expenses') ORDER BY 1`,
    );
    expect(rows).toEqual([
      { table: "expenses", forced: true },
      { table: "payments", forced: true },
      { table: "transactions", forced: true },
    ]);
  });

  it("refuses a document on an entry no document posts", async () => {
    await expect(
      conn.exec(`UPDATE transactions SET document_id = '${id(12)}' WHERE id = '${id(4)}'`),
    ).rejects.toThrow(/transactions_document_check/);
  });
});
