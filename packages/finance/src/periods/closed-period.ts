import { AppError, dateParam } from "@hisob/kernel";
import { toIsoDate } from "@hisob/kernel/schema";

/**
 * Closed periods: the ONE rule every write path goes through (docs/decisions/0094-closed-periods.md).
 *
 * A tenant's books are closed through `tenants.books_closed_through`: nothing dated on or before that
 * day is created, changed, reversed or deleted. The check runs inside the posting's own transaction and
 * takes the tenant row `FOR KEY SHARE` — the lock every foreign key to the tenant already takes, so
 * postings do not wait for each other — while moving the lock takes the row `FOR UPDATE`, which
 * conflicts with it:
 * - a posting that checked first holds its share lock until it commits, so the move waits for it;
 * - a posting that comes while a move holds the row waits, and then (READ COMMITTED) locks and reads
 *   the row's newest version — the lock date the move committed — not its statement's snapshot.
 * So a posting racing a lock move is either committed before the move or checked against the new date.
 */

/** Runs one statement with parameters in the posting's transaction (Prisma's or the driver's). */
export type PeriodSql = <T>(text: string, values: unknown[]) => Promise<T[]>;

/** A date to check, and the input field it came from (null: a stored record's date, not the caller's). */
export type DatedWrite = { date: string | Date; field: "date" | null };

const iso = (date: string | Date): string => (typeof date === "string" ? date : toIsoDate(date));

/**
 * The refusal, naming the lock date; a field error on the date when the caller gave it. The day is
 * carried as data (`dateParam`), so each language's message writes it as its users write dates
 * ("Jan 31, 2026", "31 янв. 2026 г.", "31.01.2026"); the English text here keeps it ISO for logs.
 */
export const periodClosedError = (lockDate: string, field: string | null): AppError => {
  const problem = `must be after ${lockDate}: the books are closed through that day`;
  const message = `The books are closed through ${lockDate}: nothing dated on or before it can be created, changed, reversed or deleted`;
  const day = dateParam(lockDate);
  return field === null
    ? new AppError("BUSINESS_RULE", { reason: "finance.period_closed", message, params: { lockDate: day } })
    : new AppError("VALIDATION_ERROR", {
        reason: "finance.period_closed",
        message,
        params: { field, lockDate: day, issues: [{ path: field, message: problem }] },
      });
};

/**
 * SQL condition for a one-statement posting (post-document.ts, post-transfer.ts): true when `date`
 * (a placeholder) is after the tenant's lock date; it locks the tenant row FOR KEY SHARE as above.
 */
export const periodOpenSql = (tenant: string, date: string): string =>
  `${date}::date > COALESCE((SELECT books_closed_through FROM tenants WHERE id = ${tenant}::uuid FOR KEY SHARE), '-infinity'::date)`;

const LOCK_DATE = "SELECT books_closed_through::text AS through FROM tenants WHERE id = $1::uuid";

/** The tenant's lock date (`YYYY-MM-DD`), or null when no period is closed — read without locking. */
export const readLockDate = async (run: PeriodSql, tenantId: string): Promise<string | null> =>
  (await run<{ through: string | null }>(LOCK_DATE, [tenantId]))[0]?.through ?? null;

/** The refusal for the first of `writes` on or before `lockDate`, or null. */
export const closedPeriodRefusal = (lockDate: string | null, writes: DatedWrite[]): AppError | null => {
  if (lockDate === null) return null;
  const closed = writes.find((write) => iso(write.date) <= lockDate);
  return closed ? periodClosedError(lockDate, closed.field) : null;
};

/**
 * Refuses the write when any of its dates is on or before the lock date. Call it first in the
 * write's transaction: the share lock it takes on the tenant row is held until that transaction ends.
 */
export const assertPeriodOpen = async (
  run: PeriodSql,
  tenantId: string,
  writes: DatedWrite[],
): Promise<void> => {
  const [row] = await run<{ through: string | null }>(`${LOCK_DATE} FOR KEY SHARE`, [tenantId]);
  const refusal = closedPeriodRefusal(row?.through ?? null, writes);
  if (refusal) throw refusal;
};

/** `run` on a Prisma transaction. */
export const prismaSql =
  (tx: { $queryRawUnsafe<T>(query: string, ...values: unknown[]): Promise<T> }): PeriodSql =>
  <T>(text: string, values: unknown[]) =>
    tx.$queryRawUnsafe<T[]>(text, ...values);

/** Today's date (UTC) for writes that carry no date of their own (a debt, a write-off). */
export const todayOf = (now: Date): string => toIsoDate(now);
