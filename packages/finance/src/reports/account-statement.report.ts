import { type Db, Prisma, type Tx } from "@hisob/db";
import { parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { accountNotFound } from "../accounts/accounts.service";
import { dateOf } from "../dates";
import { queryRaw } from "./report-sql";
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
  /** The entry's place in the rows read for the page (the page's order). */
  n: number;
};

/**
 * A page of one account's statement entries in [from, to] with the balance after each, ordered by
 * `order` (date, then id). `balance` is where the page starts: the balance before its first entry
 * oldest first, after its first (newest) entry newest first. Each side of the account (money out,
 * money in) is its own index range scan read in the page's order and cut at what the page can
 * need, `reach` (= offset + limit): the first `reach` rows of the merged order are among the first
 * `reach` of each side, so the window sum over them is exact and no scan reads the account's whole
 * history (a download walks a million entries in keyset pages). `after` continues after a row
 * (keyset, oldest first). Bounds, balance, reach and offset may be SQL (the statement's anchor).
 */
const entriesSql = (o: {
  tenantId: string;
  accountId: string;
  from: Date | Prisma.Sql;
  to: Date | Prisma.Sql;
  order: "asc" | "desc";
  balance: string | Prisma.Sql;
  after: { date: Date; id: string } | null;
  reach: number | Prisma.Sql;
  limit: number;
  offset: number | Prisma.Sql;
}) => {
  const desc = o.order === "desc";
  const order = desc ? Prisma.sql`date DESC, id DESC` : Prisma.sql`date, id`;
  const byDate = desc ? Prisma.sql`t.date DESC, t.id DESC` : Prisma.sql`t.date, t.id`;
  const after = o.after
    ? Prisma.sql`AND (t.date, t.id) > (${o.after.date}::date, ${o.after.id}::uuid)`
    : Prisma.empty;
  // Oldest first: the balance before the page plus the changes up to each entry. Newest first: the
  // balance after the newest entry minus the changes that came after each.
  const running = desc
    ? Prisma.sql`${o.balance}::numeric - COALESCE(sum(change) OVER (
               ORDER BY date DESC, id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)`
    : Prisma.sql`${o.balance}::numeric + sum(change) OVER (ORDER BY date, id)`;
  return Prisma.sql`
    WITH entries AS (
      (SELECT t.id, t.date, t.type, t.comment, t.destination_account_id AS counter_account_id, t.counterparty_id, t.reversal_of_id, t.reversal_reason, -t.amount AS change
         FROM transactions t
        WHERE t.tenant_id = ${o.tenantId}::uuid AND t.origin_account_id = ${o.accountId}::uuid
          AND t.date BETWEEN ${o.from}::date AND ${o.to}::date AND t.type <> 'opening_balance' ${after}
        ORDER BY ${byDate}
        LIMIT ${o.reach})
      UNION ALL
      (SELECT t.id, t.date, t.type, t.comment, t.origin_account_id, t.counterparty_id, t.reversal_of_id, t.reversal_reason,
              COALESCE(t.destination_amount, t.amount)
         FROM transactions t
        WHERE t.tenant_id = ${o.tenantId}::uuid AND t.destination_account_id = ${o.accountId}::uuid
          AND t.date BETWEEN ${o.from}::date AND ${o.to}::date AND t.type <> 'opening_balance' ${after}
        ORDER BY ${byDate}
        LIMIT ${o.reach})
    ), running AS (
      -- Numbered in the page's order in the same pass as the running balance; the page is the
      -- rows after the offset, and what follows keeps that number and sorts once, by it.
      SELECT entries.*, ${running} AS running, row_number() OVER (ORDER BY ${order}) AS n
        FROM entries
    ), page AS (
      SELECT * FROM running WHERE n > ${o.offset} AND n <= ${o.offset} + ${o.limit}::int
    )
    SELECT r.id::text, r.date, r.type::text AS type, r.comment,
           r.counter_account_id::text AS counter_account_id, r.counterparty_id::text AS counterparty_id,
           p.id::text AS payment_id, e.id::text AS expense_id,
           r.reversal_of_id::text AS reversal_of_id, rv.id::text AS reversed_by_id,
           COALESCE(r.reversal_reason, rv.reversal_reason) AS reversal_reason,
           r.change::text AS change, r.running::text AS running, r.n::int AS n
      FROM page r
      -- The page's documents and reversals, each looked up for the entries of the types that can
      -- have one (a payment posts an income, an expense an expense; only transfers and exchanges
      -- are reversed): a few small hash joins, not three probes per entry.
      LEFT JOIN (SELECT p.transaction_id, p.id FROM payments p
                  WHERE p.tenant_id = ${o.tenantId}::uuid
                    AND p.transaction_id IN (SELECT id FROM page WHERE type = 'income')) p
        ON p.transaction_id = r.id
      LEFT JOIN (SELECT e.transaction_id, e.id FROM expenses e
                  WHERE e.tenant_id = ${o.tenantId}::uuid
                    AND e.transaction_id IN (SELECT id FROM page WHERE type = 'expense')) e
        ON e.transaction_id = r.id
      LEFT JOIN (SELECT rv.reversal_of_id, rv.id, rv.reversal_reason FROM transactions rv
                  WHERE rv.tenant_id = ${o.tenantId}::uuid
                    AND rv.reversal_of_id IN (SELECT id FROM page WHERE type IN ('transfer', 'exchange'))) rv
        ON rv.reversal_of_id = r.id
     ORDER BY r.n`;
};

/**
 * Statement entries of one account in [start, end], oldest first, each with the balance right after
 * it: `from.balance` (the balance before them) plus a window sum in SQL. `from.after` continues after
 * a row (keyset, for exports); otherwise the window covers the whole period and `offset` cuts the
 * page after it.
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
): Promise<StatementRow[]> =>
  tx.$queryRaw<StatementRow[]>(
    entriesSql({
      tenantId: options.tenantId,
      accountId: options.accountId,
      from: options.start,
      to: options.end,
      order: "asc",
      balance: options.from.balance,
      after: options.from.after,
      reach: options.offset + options.limit,
      limit: options.limit,
      offset: options.offset,
    }),
  );

/**
 * A row of `statementSql`: the summary (`n` = 0, its entry columns null), then the page's entries
 * (`n` ≥ 1, its summary columns null).
 */
type StatementPageRow = Omit<StatementRow, "date"> & {
  account_id: string;
  name: string;
  number: string;
  currency: string;
  opening: string;
  closing: string;
  total: number;
  date: string;
};

/**
 * A statement page as ONE statement (one snapshot, one round trip with the transaction's opening):
 *   - `summary`: the account, its opening and closing balance and the period's entry count, from the
 *     stored balance and the balance checkpoints (`account_day_totals`, one row per account and day:
 *     `entries` and `change` the day's entries, `opening` its opening-balance entries, which open a
 *     period they fall in and are subtracted like any entry after it);
 *   - `anchor`: where the page starts, read from the checkpoints instead of the entries before it —
 *     the day that holds entry `offset` of the period in the page's order, how many of that day's
 *     entries come before it (`skip`), and the balance at the day's edge the page is read from: after
 *     its last entry newest first (the closing balance minus the later days' changes), before its
 *     first entry oldest first (the opening balance plus the earlier days' changes). A page then
 *     reads at most one day's entries before its own, whatever its offset;
 *   - the page's entries from that day on (`entriesSql`), none past the last entry (no anchor).
 * The summary is the first row (n = 0), the entries follow in the page's order (n ≥ 1, their number
 * from the anchor day on); no summary row means no such account.
 */
const statementSql = (o: {
  tenantId: string;
  accountId: string;
  start: Date;
  end: Date;
  order: "asc" | "desc";
  limit: number;
  offset: number;
}) => {
  const desc = o.order === "desc";
  const direction = desc ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const anchorDay = Prisma.sql`(SELECT date FROM anchor)`;
  return Prisma.sql`
    WITH summary AS (
      SELECT a.id, a.name, a.number, a.currency_code,
             a.balance - COALESCE(sum(d.change) FILTER (WHERE d.date >= ${o.start}::date), 0)
                       - COALESCE(sum(d.opening) FILTER (WHERE d.date > ${o.end}::date), 0) AS opening,
             a.balance - COALESCE(sum(d.change + d.opening) FILTER (WHERE d.date > ${o.end}::date), 0) AS closing,
             COALESCE(sum(d.entries) FILTER (WHERE d.date BETWEEN ${o.start}::date AND ${o.end}::date), 0)::int AS total
        FROM money_accounts a
        LEFT JOIN account_day_totals d
          ON d.tenant_id = a.tenant_id AND d.account_id = a.id AND d.date >= ${o.start}::date
       WHERE a.tenant_id = ${o.tenantId}::uuid AND a.id = ${o.accountId}::uuid
       GROUP BY a.id
    ), anchor AS (
      SELECT d.date, (${o.offset}::bigint - d.before)::int AS skip,
             (SELECT ${desc ? Prisma.sql`closing` : Prisma.sql`opening`} FROM summary)
               ${desc ? Prisma.sql`-` : Prisma.sql`+`} d.moved AS balance
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
       LIMIT 1
    ), entry_page AS (${entriesSql({
      tenantId: o.tenantId,
      accountId: o.accountId,
      from: desc ? o.start : anchorDay,
      to: desc ? anchorDay : o.end,
      order: o.order,
      balance: Prisma.sql`(SELECT balance FROM anchor)`,
      after: null,
      reach: Prisma.sql`(SELECT skip FROM anchor) + ${o.limit}::int`,
      limit: o.limit,
      offset: Prisma.sql`(SELECT skip FROM anchor)`,
    })})
    SELECT 0 AS n, s.id::text AS account_id, s.name, s.number, s.currency_code AS currency,
           s.opening::text AS opening, s.closing::text AS closing, s.total,
           NULL AS id, NULL AS date, NULL AS type, NULL AS comment, NULL AS counter_account_id,
           NULL AS counterparty_id, NULL AS payment_id, NULL AS expense_id, NULL AS reversal_of_id,
           NULL AS reversed_by_id, NULL AS reversal_reason, NULL AS change, NULL AS running
      FROM summary s
    UNION ALL
    SELECT n, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
           id, date::text, type, comment, counter_account_id, counterparty_id, payment_id, expense_id,
           reversal_of_id, reversed_by_id, reversal_reason, change, running
      FROM entry_page
     ORDER BY n`;
};

/** One account's entries in a period with the balance after each, its opening and closing balance. */
export const accountStatementReport =
  ({ db }: { db: Db }) =>
  async (ctx: TenantContext, accountId: string, raw: TAccountStatementQuery): Promise<TAccountStatement> => {
    requirePermission(ctx, "reports:read:all");
    const query = parseInput(ZAccountStatementQuery, raw);
    // On the driver: the transaction's opening (BEGIN, the tenant scope) and its COMMIT travel with
    // the one statement — one round trip, no ORM.
    const rows = await db.rawTx.withTenant(
      ctx.tenantId,
      (tx) =>
        queryRaw<StatementPageRow>(
          tx,
          statementSql({
            tenantId: ctx.tenantId,
            accountId,
            start: dateOf(query.startDate),
            end: dateOf(query.endDate),
            order: query.order,
            limit: query.limit,
            offset: query.offset,
          }),
          // A long statement, a few fixed texts, run on every page: parsed once per connection.
          { prepared: true, commit: true },
        ),
      // Read only: its COMMIT travels with it even while a cached caller awaits confirmation.
      { readOnly: true },
    );
    const [summary, ...entries] = rows;
    if (!summary || summary.n !== 0) throw accountNotFound();
    return {
      account: {
        id: summary.account_id,
        name: summary.name,
        number: summary.number,
        currency: summary.currency,
      },
      startDate: query.startDate,
      endDate: query.endDate,
      openingBalance: summary.opening,
      closingBalance: summary.closing,
      entries: entries.map((row) => ({
        id: row.id,
        date: row.date,
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
  };
