import { type Db, Prisma, type Tx } from "@hisob/db";
import { parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { dateOf } from "@hisob/kernel/schema";
import { accountNotFound } from "../accounts/accounts.service";
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
  /** The payment an income posts, the expense an expense posts. */
  document_id: string | null;
  reversal_of_id: string | null;
  /** Why this entry reversed another (it is a reversal). */
  reversal_reason: string | null;
  change: string;
  running: string;
};

/** A download's statement row: also why the entry was reversed, if a reversal undid it. */
export type StatementExportRow = StatementRow & {
  /** The reason of the reversal that undid this entry (null when none did). */
  reversed_reason: string | null;
  is_reversed: boolean;
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
 * The rows come in the page's order: every step keeps the order the scans read them in, so
 * PostgreSQL sorts nothing.
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
  const pageOrder = desc ? Prisma.sql`r.date DESC, r.id DESC` : Prisma.sql`r.date, r.id`;
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
      (SELECT t.id, t.date, t.type, t.comment, t.destination_account_id AS counter_account_id, t.counterparty_id, t.document_id, t.reversal_of_id, t.reversal_reason, -t.amount AS change
         FROM transactions t
        WHERE t.tenant_id = ${o.tenantId}::uuid AND t.origin_account_id = ${o.accountId}::uuid
          AND t.date BETWEEN ${o.from}::date AND ${o.to}::date AND t.type <> 'opening_balance' ${after}
        ORDER BY ${byDate}
        LIMIT ${o.reach})
      UNION ALL
      (SELECT t.id, t.date, t.type, t.comment, t.origin_account_id, t.counterparty_id, t.document_id, t.reversal_of_id, t.reversal_reason,
              COALESCE(t.destination_amount, t.amount)
         FROM transactions t
        WHERE t.tenant_id = ${o.tenantId}::uuid AND t.destination_account_id = ${o.accountId}::uuid
          AND t.date BETWEEN ${o.from}::date AND ${o.to}::date AND t.type <> 'opening_balance' ${after}
        ORDER BY ${byDate}
        LIMIT ${o.reach})
    ), page AS (
      SELECT entries.*, ${running} AS running
        FROM entries
       ORDER BY ${order}
       LIMIT ${o.limit}::int OFFSET ${o.offset}
    )
    -- The id stays a uuid (both drivers return it as text): the statement page looks its reversal
    -- up by it, and a cast back from text is not leakproof, so under row-level security that lookup
    -- could not use its index (a sequential scan per entry, and a cost that switched JIT on).
    SELECT r.id, r.date, r.type::text AS type, r.comment,
           r.counter_account_id::text AS counter_account_id, r.counterparty_id::text AS counterparty_id,
           -- The document is on the entry (a payment posts an income, an expense an expense).
           r.document_id::text AS document_id,
           r.reversal_of_id::text AS reversal_of_id, r.reversal_reason,
           r.change::text AS change, r.running::text AS running
      FROM page r
     ORDER BY ${pageOrder}`;
};

/**
 * Statement entries of one account in [start, end], oldest first, each with the balance right after
 * it: `from.balance` (the balance before them) plus a window sum in SQL. `from.after` continues after
 * a row (keyset, for exports); otherwise the window covers the whole period and `offset` cuts the
 * page after it. Each row also tells whether a reversal undid it, and why (a download keeps the
 * reason on both entries, as the screen does): one index probe per transfer or exchange.
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
): Promise<StatementExportRow[]> =>
  tx.$queryRaw<StatementExportRow[]>(Prisma.sql`
    SELECT e.*, rv.reversal_reason AS reversed_reason, rv.id IS NOT NULL AS is_reversed
      FROM (${entriesSql({
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
      })}) e
      LEFT JOIN LATERAL (
        SELECT rv.id, rv.reversal_reason FROM transactions rv
         WHERE e.type IN ('transfer', 'exchange')
           AND rv.tenant_id = ${options.tenantId}::uuid AND rv.reversal_of_id = e.id
         LIMIT 1
      ) rv ON true
     ORDER BY e.date, e.id`);

/** The entry that reversed a statement entry, and why. */
type ReversedBy = { id: string; reason: string | null };

type StatementSummary = {
  account_id: string;
  name: string;
  number: string;
  currency: string;
  opening: string;
  closing: string;
  total: number;
};

/**
 * A row of `statementSql`, as an array of its columns (a page is hundreds of rows: no object per
 * row): the summary (the entry's columns null), then the page's entries (`summary` null).
 */
type StatementPageRow = [
  summary: StatementSummary | null,
  id: string,
  date: string,
  type: StatementRow["type"],
  comment: string,
  counterAccountId: string | null,
  counterpartyId: string | null,
  documentId: string | null,
  reversalOfId: string | null,
  reversalReason: string | null,
  reversedBy: ReversedBy | null,
  change: string,
  running: string,
];

/**
 * A statement page as ONE statement (one snapshot, one round trip with the transaction's opening):
 *   - `summary`: the account, its opening and closing balance and the period's entry count, from the
 *     stored balance and the balance checkpoints (`account_day_totals`, one row per account and day:
 *     `entries` and `change` the day's entries, `opening` its opening-balance entries, which open a
 *     period they fall in and are subtracted like any entry after it), read once (`days`);
 *   - the first page starts at the period's edge with the opening balance (oldest first) or the
 *     closing one (newest first). A later page starts at its `anchor`, read from the checkpoints
 *     instead of the entries before it: the day that holds entry `offset` of the period in the
 *     page's order, how many of that day's entries come before it (`skip`), and the balance at the
 *     day's edge the page is read from. A page then reads at most one day's entries before its
 *     own, whatever its offset;
 *   - the page's entries from there on (`entriesSql`), none past the last entry (no anchor).
 * The summary is the first row (its entry columns null), the page's entries follow in the page's
 * order (`summary` null): a UNION ALL runs its branches one after the other — a Parallel Append,
 * which could interleave them, needs partial paths, and neither branch can have one (a CTE scan, a
 * window over a LIMIT) — and the entries' branch is ordered. No row at all means no such account.
 */
export const statementSql = (o: {
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
  const edge = desc ? Prisma.sql`closing` : Prisma.sql`opening`;
  const anchored = o.offset > 0;
  const anchorDay = Prisma.sql`(SELECT date FROM anchor)`;
  const anchor = anchored
    ? Prisma.sql`, anchor AS (
      SELECT d.date, (${o.offset}::bigint - d.before)::int AS skip,
             (SELECT ${edge} FROM summary) ${desc ? Prisma.sql`-` : Prisma.sql`+`} d.moved AS balance
        FROM (
          SELECT date, entries,
                 COALESCE(sum(entries) OVER w, 0) AS before,
                 COALESCE(sum(change) OVER w, 0) AS moved
            FROM days
           WHERE date <= ${o.end}::date AND entries > 0
          WINDOW w AS (ORDER BY date ${direction} ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
        ) d
       WHERE d.before <= ${o.offset}::bigint AND ${o.offset}::bigint < d.before + d.entries
       ORDER BY d.date ${direction}
       LIMIT 1
    )`
    : Prisma.empty;
  const entries = entriesSql({
    tenantId: o.tenantId,
    accountId: o.accountId,
    from: desc || !anchored ? o.start : anchorDay,
    to: desc && anchored ? anchorDay : o.end,
    order: o.order,
    balance: anchored ? Prisma.sql`(SELECT balance FROM anchor)` : Prisma.sql`(SELECT ${edge} FROM summary)`,
    after: null,
    reach: anchored ? Prisma.sql`(SELECT skip FROM anchor) + ${o.limit}::int` : o.limit,
    limit: o.limit,
    offset: anchored ? Prisma.sql`(SELECT skip FROM anchor)` : 0,
  });
  return Prisma.sql`
    WITH days AS (
      SELECT date, entries, change, opening FROM account_day_totals
       WHERE tenant_id = ${o.tenantId}::uuid AND account_id = ${o.accountId}::uuid AND date >= ${o.start}::date
    ), summary AS (
      SELECT a.id, a.name, a.number, a.currency_code,
             a.balance - d.moved - d.opened_after AS opening,
             a.balance - d.moved_after - d.opened_after AS closing, d.total
        FROM money_accounts a,
             (SELECT COALESCE(sum(change), 0) AS moved,
                     COALESCE(sum(change) FILTER (WHERE date > ${o.end}::date), 0) AS moved_after,
                     COALESCE(sum(opening) FILTER (WHERE date > ${o.end}::date), 0) AS opened_after,
                     COALESCE(sum(entries) FILTER (WHERE date <= ${o.end}::date), 0)::int AS total
                FROM days) d
       WHERE a.tenant_id = ${o.tenantId}::uuid AND a.id = ${o.accountId}::uuid
    )${anchor}, entry_page AS (${entries})
    -- The summary travels as one JSON value (balances as text: exact), so an entry row does not
    -- carry seven empty columns for it.
    SELECT json_build_object('account_id', s.id, 'name', s.name, 'number', s.number,
             'currency', s.currency_code, 'opening', s.opening::text, 'closing', s.closing::text,
             'total', s.total) AS summary,
           NULL AS id, NULL AS date, NULL AS type, NULL AS comment, NULL AS counter_account_id,
           NULL AS counterparty_id, NULL AS document_id, NULL AS reversal_of_id, NULL AS reversal_reason,
           NULL AS reversed_by, NULL AS change, NULL AS running
      FROM summary s
    UNION ALL
    SELECT NULL, e.id, e.date::text, e.type, e.comment, e.counter_account_id, e.counterparty_id, e.document_id,
           e.reversal_of_id, e.reversal_reason,
           -- The entry that reversed this one, looked up only for the types that can have one
           -- (transfers and exchanges): one index probe for such an entry, nothing at all for the
           -- others (the CASE skips the subquery). Reversals are rare: the pair travels as one JSON
           -- value, null for every other entry. Here, not in entriesSql: a download does not show it.
           CASE WHEN e.type IN ('transfer', 'exchange') THEN (
             SELECT json_build_object('id', rv.id, 'reason', rv.reversal_reason) FROM transactions rv
              WHERE rv.tenant_id = ${o.tenantId}::uuid AND rv.reversal_of_id = e.id
           ) END AS reversed_by,
           e.change, e.running
      FROM entry_page e`;
};

/** One account's entries in a period with the balance after each, its opening and closing balance. */
export const accountStatementReport =
  ({ db }: { db: Db }) =>
  async (ctx: TenantContext, accountId: string, raw: TAccountStatementQuery): Promise<TAccountStatement> => {
    requirePermission(ctx, "reports:read:all");
    const query = parseInput(ZAccountStatementQuery, raw);
    // On the driver: the tenant scope travels with the one statement, which is the whole
    // transaction — one round trip, no ORM.
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
          { prepared: true, commit: true, rowMode: "array" },
        ),
      // Read only: it commits with its one statement even while a cached caller awaits confirmation.
      { readOnly: true },
    );
    const [first, ...entries] = rows;
    const summary = first?.[0];
    if (!summary) throw accountNotFound();
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
      entries: entries.map(
        ([
          ,
          id,
          date,
          type,
          comment,
          counterAccountId,
          counterpartyId,
          documentId,
          reversalOfId,
          reversalReason,
          reversedBy,
          change,
          runningBalance,
        ]) => ({
          id,
          date,
          type,
          comment,
          counterAccountId,
          counterpartyId,
          paymentId: type === "income" ? documentId : null,
          expenseId: type === "expense" ? documentId : null,
          reversalOfId,
          reversedById: reversedBy?.id ?? null,
          // A reversal's own reason, or the reason it was reversed for.
          reversalReason: reversalReason ?? reversedBy?.reason ?? null,
          change,
          runningBalance,
        }),
      ),
      total: summary.total,
      limit: query.limit,
      offset: query.offset,
    };
  };
