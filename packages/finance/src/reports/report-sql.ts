import { Prisma, type QueryOptions, type RawTenantTx } from "@hisob/db";
import { accountNotFound } from "../accounts/accounts.service";
import { notFound } from "../finance-errors";

/*
 * Reports are SQL aggregates over indexed date ranges of the ledger, per currency: a fixed handful
 * of statements whatever the data (the cash flow is one), each report in one snapshot — one
 * statement, or a read-only snapshot transaction — no summing in JavaScript (the code here only
 * reshapes rows). Opening and closing balances are derived from the stored balance minus what was
 * posted since (read from the balance checkpoints, `account_day_totals`), so a report always agrees
 * with the accounts.
 */

export const accountIdsOf = (value: string | string[] | undefined): string[] | null =>
  value === undefined ? null : [...new Set(Array.isArray(value) ? value : [value])];

/**
 * A report limited to accounts, categories (payment or expense ones) or counterparties names those of
 * this organization: another tenant's (or an unknown) id is NOT_FOUND, as the account statement
 * answers, not an empty report. One statement whatever is asked; none when nothing is.
 */
export const assertFiltersExist = async (
  tx: RawTenantTx,
  tenantId: string,
  filters: { ids: string[] | null; categoryIds: string[] | null; counterpartyIds: string[] | null },
): Promise<void> => {
  if (!filters.ids && !filters.categoryIds && !filters.counterpartyIds) return;
  const count = (table: string, ids: string[] | null) =>
    ids
      ? Prisma.sql`(SELECT count(*) FROM ${Prisma.raw(table)} WHERE tenant_id = ${tenantId}::uuid AND id = ANY(${ids}::uuid[]))::int`
      : Prisma.sql`0`;
  const [found] = await queryRaw<{ accounts: number; categories: number; counterparties: number }>(
    tx,
    Prisma.sql`SELECT ${count("money_accounts", filters.ids)} AS accounts,
                      ${count("payment_categories", filters.categoryIds)} + ${count("expense_categories", filters.categoryIds)} AS categories,
                      ${count("counterparties", filters.counterpartyIds)} AS counterparties`,
  );
  if (filters.ids && found?.accounts !== filters.ids.length) throw accountNotFound();
  if (filters.categoryIds && found?.categories !== filters.categoryIds.length)
    throw notFound("finance.category_not_found", "Category not found");
  if (filters.counterpartyIds && found?.counterparties !== filters.counterpartyIds.length)
    throw notFound("finance.counterparty_not_found", "Counterparty not found");
};

/** `AND <column> = ANY(ids)` when the report is limited to some accounts. */
export const accountFilter = (column: Prisma.Sql, ids: string[] | null) =>
  ids ? Prisma.sql`AND ${column} = ANY(${ids}::uuid[])` : Prisma.empty;

/**
 * An opening balance is where an account starts, not a movement: one dated within a report's range
 * counts in the report's opening balance and in no flow; one dated after the range is subtracted from
 * the closing balance like any later entry. So opening + flows = closing still holds.
 */
export const OPENING = Prisma.sql`'opening_balance'`;

/**
 * A statement built with `Prisma.sql` run on the driver (`db.rawTx`): its text with `$1…` and its
 * values, a Date as its ISO string (the statement casts; the drivers would write a Date in the
 * process's time zone).
 */
export const queryRaw = <T>(tx: RawTenantTx, sql: Prisma.Sql, options?: QueryOptions): Promise<T[]> =>
  tx.query<T>(
    sql.text,
    sql.values.map((value) => (value instanceof Date ? value.toISOString() : value)),
    options,
  );
