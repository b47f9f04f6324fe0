import { type Db, Prisma, type Tx } from "@hisob/db";
import { parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { accountNotFound } from "../accounts/accounts.service";
import { dateOf, toIsoDate } from "../dates";
import { atOpening, legs, OPENING } from "./report-sql";
import {
  type TAccountStatement,
  type TAccountStatementQuery,
  ZAccountStatementQuery,
} from "./reports.schema";

export type StatementRow = {
  id: string;
  date: Date;
  type: "income" | "expense" | "transfer" | "exchange";
  comment: string;
  counter_account_id: string | null;
  payment_id: string | null;
  expense_id: string | null;
  reversal_of_id: string | null;
  reversed_by_id: string | null;
  change: string;
  running: string;
};

/**
 * Statement entries of one account in [start, end], newest first, each with the balance right after
 * it: `closing` (the balance after the period's last entry) minus the changes that came after it. Each
 * side is an index range scan read backwards and cut at offset + limit, so the newest page costs the
 * same for 10 entries or 1,000,000.
 */
export const statementRowsNewestFirst = (
  tx: Tx,
  options: {
    tenantId: string;
    accountId: string;
    start: Date;
    end: Date;
    closing: string;
    limit: number;
    offset: number;
  },
): Promise<StatementRow[]> => {
  const { tenantId, accountId, start, end, closing } = options;
  const reach = options.offset + options.limit;
  return tx.$queryRaw<StatementRow[]>`
    WITH entries AS (
      (SELECT t.id, t.date, t.type, t.comment, t.destination_account_id AS counter_account_id, t.reversal_of_id, -t.amount AS change
         FROM transactions t
        WHERE t.tenant_id = ${tenantId}::uuid AND t.origin_account_id = ${accountId}::uuid
          AND t.date BETWEEN ${start}::date AND ${end}::date AND t.type <> 'opening_balance'
        ORDER BY t.date DESC, t.id DESC
        LIMIT ${reach})
      UNION ALL
      (SELECT t.id, t.date, t.type, t.comment, t.origin_account_id, t.reversal_of_id,
              COALESCE(t.destination_amount, t.amount)
         FROM transactions t
        WHERE t.tenant_id = ${tenantId}::uuid AND t.destination_account_id = ${accountId}::uuid
          AND t.date BETWEEN ${start}::date AND ${end}::date AND t.type <> 'opening_balance'
        ORDER BY t.date DESC, t.id DESC
        LIMIT ${reach})
    ), running AS (
      SELECT entries.*, ${closing}::numeric - COALESCE(sum(change) OVER (
               ORDER BY date DESC, id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS running
        FROM entries
       ORDER BY date DESC, id DESC
       LIMIT ${reach}
    )
    SELECT r.id::text, r.date, r.type::text AS type, r.comment,
           r.counter_account_id::text AS counter_account_id,
           p.id::text AS payment_id, e.id::text AS expense_id,
           r.reversal_of_id::text AS reversal_of_id, rv.id::text AS reversed_by_id,
           r.change::text AS change, r.running::text AS running
      FROM running r
      LEFT JOIN payments p ON p.tenant_id = ${tenantId}::uuid AND p.transaction_id = r.id
      LEFT JOIN expenses e ON e.tenant_id = ${tenantId}::uuid AND e.transaction_id = r.id
      LEFT JOIN transactions rv ON rv.tenant_id = ${tenantId}::uuid AND rv.reversal_of_id = r.id
     ORDER BY r.date DESC, r.id DESC
     LIMIT ${options.limit} OFFSET ${options.offset}`;
};

/**
 * Statement entries of one account in [start, end], oldest first, each with the balance right after
 * it: `from.balance` plus a window sum in SQL. `from.after` continues after a row (keyset, for
 * exports); otherwise the window covers the whole period and `offset` cuts the page after it.
 */
export const statementRows = (
  tx: Tx,
  options: {
    tenantId: string;
    accountId: string;
    start: Date;
    end: Date;
    from: { balance: string; after: { date: Date; id: string } | null };
    limit: number;
    offset: number;
  },
): Promise<StatementRow[]> => {
  const { tenantId, accountId, start, end, from } = options;
  // Each side of the account (money out, money in) is its own index range scan, cut at what the
  // page can need: the first offset + limit rows of the merged order are among the first
  // offset + limit of each side, so the window sum over them is exact and no scan reads the
  // account's whole history (a download walks a million entries in keyset pages).
  const reach = options.offset + options.limit;
  const after = from.after
    ? Prisma.sql`AND (t.date, t.id) > (${from.after.date}::date, ${from.after.id}::uuid)`
    : Prisma.empty;
  return tx.$queryRaw<StatementRow[]>`
    WITH entries AS (
      (SELECT t.id, t.date, t.type, t.comment, t.destination_account_id AS counter_account_id, t.reversal_of_id, -t.amount AS change
         FROM transactions t
        WHERE t.tenant_id = ${tenantId}::uuid AND t.origin_account_id = ${accountId}::uuid
          AND t.date BETWEEN ${start}::date AND ${end}::date AND t.type <> 'opening_balance' ${after}
        ORDER BY t.date, t.id
        LIMIT ${reach})
      UNION ALL
      (SELECT t.id, t.date, t.type, t.comment, t.origin_account_id, t.reversal_of_id,
              COALESCE(t.destination_amount, t.amount)
         FROM transactions t
        WHERE t.tenant_id = ${tenantId}::uuid AND t.destination_account_id = ${accountId}::uuid
          AND t.date BETWEEN ${start}::date AND ${end}::date AND t.type <> 'opening_balance' ${after}
        ORDER BY t.date, t.id
        LIMIT ${reach})
    ), running AS (
      SELECT entries.*, ${from.balance}::numeric + sum(change) OVER (ORDER BY date, id) AS running
        FROM entries
       ORDER BY date, id
       LIMIT ${reach}
    )
    SELECT r.id::text, r.date, r.type::text AS type, r.comment,
           r.counter_account_id::text AS counter_account_id,
           p.id::text AS payment_id, e.id::text AS expense_id,
           r.reversal_of_id::text AS reversal_of_id, rv.id::text AS reversed_by_id,
           r.change::text AS change, r.running::text AS running
      FROM running r
      LEFT JOIN payments p ON p.tenant_id = ${tenantId}::uuid AND p.transaction_id = r.id
      LEFT JOIN expenses e ON e.tenant_id = ${tenantId}::uuid AND e.transaction_id = r.id
      LEFT JOIN transactions rv ON rv.tenant_id = ${tenantId}::uuid AND rv.reversal_of_id = r.id
     ORDER BY r.date, r.id
     LIMIT ${options.limit} OFFSET ${options.offset}`;
};

/** One account's entries in a period with the balance after each, its opening and closing balance. */
export const accountStatementReport =
  ({ db }: { db: Db }) =>
  async (ctx: TenantContext, accountId: string, raw: TAccountStatementQuery): Promise<TAccountStatement> => {
    requirePermission(ctx, "reports:read:all");
    const query = parseInput(ZAccountStatementQuery, raw);
    const start = dateOf(query.startDate);
    const end = dateOf(query.endDate);
    return db.withTenant(
      ctx.tenantId,
      async (tx) => {
        const account = await tx.moneyAccount.findFirst({
          where: { tenantId: ctx.tenantId, id: accountId },
          select: { id: true, name: true, number: true, currencyCode: true },
        });
        if (!account) throw accountNotFound();
        const [summary] = await tx.$queryRaw<[{ opening: string; closing: string; total: number }]>`
            WITH l AS (${legs(ctx.tenantId, start, [accountId])})
            SELECT (a.balance - COALESCE(sum(l.inflow - l.outflow) FILTER (WHERE ${atOpening(end)}), 0))::text AS opening,
                   (a.balance - COALESCE(sum(l.inflow - l.outflow) FILTER (WHERE l.date > ${end}::date), 0))::text AS closing,
                   count(*) FILTER (WHERE l.date <= ${end}::date AND l.type <> ${OPENING})::int AS total
              FROM money_accounts a LEFT JOIN l ON true
             WHERE a.tenant_id = ${ctx.tenantId}::uuid AND a.id = ${accountId}::uuid
             GROUP BY a.balance`;
        if (!summary) throw accountNotFound();
        const page = {
          tenantId: ctx.tenantId,
          accountId,
          start,
          end,
          limit: query.limit,
          offset: query.offset,
        };
        const rows =
          query.order === "desc"
            ? await statementRowsNewestFirst(tx, { ...page, closing: summary.closing })
            : await statementRows(tx, { ...page, from: { balance: summary.opening, after: null } });
        return {
          account: {
            id: account.id,
            name: account.name,
            number: account.number,
            currency: account.currencyCode,
          },
          startDate: query.startDate,
          endDate: query.endDate,
          openingBalance: summary.opening,
          closingBalance: summary.closing,
          entries: rows.map((row) => ({
            id: row.id,
            date: toIsoDate(row.date),
            type: row.type,
            comment: row.comment,
            counterAccountId: row.counter_account_id,
            paymentId: row.payment_id,
            expenseId: row.expense_id,
            reversalOfId: row.reversal_of_id,
            reversedById: row.reversed_by_id,
            change: row.change,
            runningBalance: row.running,
          })),
          total: summary.total,
          limit: query.limit,
          offset: query.offset,
        };
      },
      { snapshot: true },
    );
  };
