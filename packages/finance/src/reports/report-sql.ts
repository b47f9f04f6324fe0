import { Prisma, type QueryOptions, type RawTenantTx, type Tx } from "@hisob/db";
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
 * A report limited to accounts names accounts of this organization: another tenant's (or an
 * unknown) id is NOT_FOUND, as the account statement answers, not an empty report.
 */
export const assertAccountsExist = async (tx: Tx, tenantId: string, ids: string[] | null): Promise<void> => {
  if (!ids) return;
  const found = await tx.moneyAccount.count({ where: { tenantId, id: { in: ids } } });
  if (found !== ids.length) throw accountNotFound();
};

/**
 * Categories (payment or expense ones) and counterparties a report is limited to are this
 * organization's: another tenant's (or an unknown) id is NOT_FOUND, as for accounts.
 */
export const assertCategoriesExist = async (tx: Tx, tenantId: string, ids: string[] | null) => {
  if (!ids) return;
  const where = { tenantId, id: { in: ids } };
  const found = (await tx.paymentCategory.count({ where })) + (await tx.expenseCategory.count({ where }));
  if (found !== ids.length) throw notFound("finance.category_not_found", "Category not found");
};
export const assertCounterpartiesExist = async (tx: Tx, tenantId: string, ids: string[] | null) => {
  if (!ids) return;
  const found = await tx.counterparty.count({ where: { tenantId, id: { in: ids } } });
  if (found !== ids.length) throw notFound("finance.counterparty_not_found", "Counterparty not found");
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
