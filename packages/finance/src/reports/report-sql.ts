import { Prisma, type Tx } from "@hisob/db";
import { accountNotFound } from "../accounts/accounts.service";

/*
 * Reports are SQL aggregates over indexed date ranges of the ledger, per currency, each in one
 * read-only snapshot transaction: a fixed handful of statements whatever the data, no summing in
 * JavaScript (the code here only reshapes rows). Opening and closing balances are derived from the
 * stored balance minus what was posted since, so a report always agrees with the accounts.
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

/** `AND <column> = ANY(ids)` when the report is limited to some accounts. */
export const accountFilter = (column: Prisma.Sql, ids: string[] | null) =>
  ids ? Prisma.sql`AND ${column} = ANY(${ids}::uuid[])` : Prisma.empty;

/** Each transaction as its account legs: money in to the destination, money out of the origin. */
export const legs = (tenantId: string, since: Date, ids: string[] | null) => Prisma.sql`
  SELECT t.destination_account_id AS account_id, t.date, t.type,
         COALESCE(t.destination_amount, t.amount) AS inflow, 0::bigint AS outflow
    FROM transactions t
   WHERE t.tenant_id = ${tenantId}::uuid AND t.destination_account_id IS NOT NULL AND t.date >= ${since}::date
         ${accountFilter(Prisma.sql`t.destination_account_id`, ids)}
  UNION ALL
  SELECT t.origin_account_id, t.date, t.type, 0::bigint, t.amount
    FROM transactions t
   WHERE t.tenant_id = ${tenantId}::uuid AND t.origin_account_id IS NOT NULL AND t.date >= ${since}::date
         ${accountFilter(Prisma.sql`t.origin_account_id`, ids)}`;

/**
 * The legs summed per account, day and type: what the cash flow report aggregates further (by
 * account, by period, with a FILTER per flow). Sums of these sums are the same sums, but the
 * FILTERed aggregates then run over at most accounts × days × types rows instead of one row per leg.
 */
export const dailyLegs = (tenantId: string, since: Date, ids: string[] | null) => Prisma.sql`
  SELECT leg.account_id, leg.date, leg.type, sum(leg.inflow) AS inflow, sum(leg.outflow) AS outflow
    FROM (${legs(tenantId, since, ids)}) AS leg
   GROUP BY leg.account_id, leg.date, leg.type`;

/**
 * An opening balance is where an account starts, not a movement: one dated within a report's range
 * counts in the report's opening balance and in no flow; one dated after the range is subtracted from
 * the closing balance like any later entry. So opening + flows = closing still holds.
 */
export const OPENING = Prisma.sql`'opening_balance'`;
export const atOpening = (end: Date) => Prisma.sql`(l.type <> ${OPENING} OR l.date > ${end}::date)`;
