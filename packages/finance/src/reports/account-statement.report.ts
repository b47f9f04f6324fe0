import { type Db, Prisma, type Tx } from "@hisob/db";
import { parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { accountNotFound } from "../accounts/accounts.service";
import { dateOf, toIsoDate } from "../dates";
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
  counterparty_id: string | null;
  payment_id: string | null;
  expense_id: string | null;
  reversal_of_id: string | null;
  reversed_by_id: string | null;
  reversal_reason: string | null;
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
      (SELECT t.id, t.date, t.type, t.comment, t.destination_account_id AS counter_account_id, t.counterparty_id, t.reversal_of_id, t.reversal_reason, -t.amount AS change
         FROM transactions t
        WHERE t.tenant_id = ${tenantId}::uuid AND t.origin_account_id = ${accountId}::uuid
          AND t.date BETWEEN ${start}::date AND ${end}::date AND t.type <> 'opening_balance'
        ORDER BY t.date DESC, t.id DESC
        LIMIT ${reach})
      UNION ALL
      (SELECT t.id, t.date, t.type, t.comment, t.origin_account_id, t.counterparty_id, t.reversal_of_id, t.reversal_reason,
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
           r.counter_account_id::text AS counter_account_id, r.counterparty_id::text AS counterparty_id,
           p.id::text AS payment_id, e.id::text AS expense_id,
           r.reversal_of_id::text AS reversal_of_id, rv.id::text AS reversed_by_id,
           COALESCE(r.reversal_reason, rv.reversal_reason) AS reversal_reason,
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
      (SELECT t.id, t.date, t.type, t.comment, t.destination_account_id AS counter_account_id, t.counterparty_id, t.reversal_of_id, t.reversal_reason, -t.amount AS change
         FROM transactions t
        WHERE t.tenant_id = ${tenantId}::uuid AND t.origin_account_id = ${accountId}::uuid
          AND t.date BETWEEN ${start}::date AND ${end}::date AND t.type <> 'opening_balance' ${after}
        ORDER BY t.date, t.id
        LIMIT ${reach})
      UNION ALL
      (SELECT t.id, t.date, t.type, t.comment, t.origin_account_id, t.counterparty_id, t.reversal_of_id, t.reversal_reason,
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
           r.counter_account_id::text AS counter_account_id, r.counterparty_id::text AS counterparty_id,
           p.id::text AS payment_id, e.id::text AS expense_id,
           r.reversal_of_id::text AS reversal_of_id, rv.id::text AS reversed_by_id,
           COALESCE(r.reversal_reason, rv.reversal_reason) AS reversal_reason,
           r.change::text AS change, r.running::text AS running
      FROM running r
      LEFT JOIN payments p ON p.tenant_id = ${tenantId}::uuid AND p.transaction_id = r.id
      LEFT JOIN expenses e ON e.tenant_id = ${tenantId}::uuid AND e.transaction_id = r.id
      LEFT JOIN transactions rv ON rv.tenant_id = ${tenantId}::uuid AND rv.reversal_of_id = r.id
     ORDER BY r.date, r.id
     LIMIT ${options.limit} OFFSET ${options.offset}`;
};

/**
 * Where a statement page starts, read from the balance checkpoints (`account_day_totals`, one row per
 * account and day) instead of the entries before it: the day that holds entry `offset` of the period
 * in `order`, how many of that day's entries come before it on that side (`skip`), and the balance at
 * the day's edge the page is read from — after its last entry for newest first (`edge` = the closing
 * balance minus the later days' changes), before its first entry for oldest first (`edge` = the
 * opening balance plus the earlier days' changes). A page then reads at most one day's entries before
 * its own, whatever its offset; `null` past the last entry.
 */
export const pageAnchor = async (
  tx: Tx,
  o: {
    tenantId: string;
    accountId: string;
    start: Date;
    end: Date;
    offset: number;
    order: "asc" | "desc";
    edge: string;
  },
): Promise<{ date: Date; skip: number; balance: string } | null> => {
  const desc = o.order === "desc";
  const direction = desc ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const [row] = await tx.$queryRaw<{ date: Date; skip: number; balance: string }[]>`
    SELECT d.date, (${o.offset}::bigint - d.before)::int AS skip,
           (${o.edge}::numeric ${desc ? Prisma.sql`-` : Prisma.sql`+`} d.moved)::text AS balance
      FROM (
        SELECT date, entries,
               COALESCE(sum(entries) OVER w, 0) AS before,
               COALESCE(sum(change) OVER w, 0) AS moved
          FROM account_day_totals
         WHERE tenant_id = ${o.tenantId}::uuid AND account_id = ${o.accountId}::uuid
           AND date BETWEEN ${o.start}::date AND ${o.end}::date AND entries > 0
        WINDOW w AS (ORDER BY date ${direction} ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
      ) d
     WHERE d.before <= ${o.offset}::bigint AND ${o.offset}::bigint < d.before + d.entries
     ORDER BY d.date ${direction}
     LIMIT 1`;
  return row ?? null;
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
            SELECT (a.balance - COALESCE(sum(d.change) FILTER (WHERE d.date >= ${start}::date), 0)
                              - COALESCE(sum(d.opening) FILTER (WHERE d.date > ${end}::date), 0))::text AS opening,
                   (a.balance - COALESCE(sum(d.change + d.opening) FILTER (WHERE d.date > ${end}::date), 0))::text AS closing,
                   COALESCE(sum(d.entries) FILTER (WHERE d.date BETWEEN ${start}::date AND ${end}::date), 0)::int AS total
              FROM money_accounts a
              LEFT JOIN account_day_totals d
                ON d.tenant_id = a.tenant_id AND d.account_id = a.id AND d.date >= ${start}::date
             WHERE a.tenant_id = ${ctx.tenantId}::uuid AND a.id = ${accountId}::uuid
             GROUP BY a.balance`;
        if (!summary) throw accountNotFound();
        const anchor = await pageAnchor(tx, {
          tenantId: ctx.tenantId,
          accountId,
          start,
          end,
          offset: query.offset,
          order: query.order,
          edge: query.order === "desc" ? summary.closing : summary.opening,
        });
        const page = { tenantId: ctx.tenantId, accountId, limit: query.limit, offset: anchor?.skip ?? 0 };
        const rows = !anchor
          ? []
          : query.order === "desc"
            ? await statementRowsNewestFirst(tx, {
                ...page,
                start,
                end: anchor.date,
                closing: anchor.balance,
              })
            : await statementRows(tx, {
                ...page,
                start: anchor.date,
                end,
                from: { balance: anchor.balance, after: null },
              });
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
            counterpartyId: row.counterparty_id,
            paymentId: row.payment_id,
            expenseId: row.expense_id,
            reversalOfId: row.reversal_of_id,
            reversedById: row.reversed_by_id,
            reversalReason: row.reversal_reason,
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
