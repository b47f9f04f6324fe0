import { type Db, Prisma, type Tx } from "@hisob/db";
import { parseInput, requirePermission, type TenantContext, validationError } from "@hisob/kernel";
import { accountNotFound } from "../accounts/accounts.service";
import { dateOf, toIsoDate } from "../dates";
import {
  type TAccountStatement,
  type TAccountStatementQuery,
  type TCashflowQuery,
  type TCashflowReport,
  type TIncomeStatement,
  type TIncomeStatementQuery,
  ZAccountStatementQuery,
  ZCashflowQuery,
  ZIncomeStatementQuery,
} from "./reports.schema";

/*
 * Reports are SQL aggregates over indexed date ranges of the ledger, per currency, each in one
 * read-only snapshot transaction: a fixed handful of statements whatever the data, no summing in
 * JavaScript (the code here only reshapes rows). Opening and closing balances are derived from the
 * stored balance minus what was posted since, so a report always agrees with the accounts.
 */

const accountIdsOf = (value: string | string[] | undefined): string[] | null =>
  value === undefined ? null : [...new Set(Array.isArray(value) ? value : [value])];

/**
 * A report limited to accounts names accounts of this organization: another tenant's (or an
 * unknown) id is NOT_FOUND, as the account statement answers, not an empty report.
 */
const assertAccountsExist = async (tx: Tx, tenantId: string, ids: string[] | null): Promise<void> => {
  if (!ids) return;
  const found = await tx.moneyAccount.count({ where: { tenantId, id: { in: ids } } });
  if (found !== ids.length) throw accountNotFound();
};

/** `AND <column> = ANY(ids)` when the report is limited to some accounts. */
const accountFilter = (column: Prisma.Sql, ids: string[] | null) =>
  ids ? Prisma.sql`AND ${column} = ANY(${ids}::uuid[])` : Prisma.empty;

type IncomeRow = {
  currency: string;
  kind: "total" | "month" | "category";
  month: string | null;
  type: "income" | "expense" | null;
  category_id: string | null;
  category_name: string | null;
  revenue: string;
  expenses: string;
  net: string;
};

const incomeStatement = async (
  tx: Tx,
  tenantId: string,
  start: Date,
  end: Date,
  ids: string[] | null,
): Promise<IncomeRow[]> =>
  // Totals and months from the ledger; the category split from the documents (a payment or expense
  // carries its entry's amount and date, which reconcile checks), so no per-entry joins are needed.
  tx.$queryRaw<IncomeRow[]>`
    WITH entries AS (
      SELECT a.currency_code AS currency, t.type, t.amount, to_char(t.date, 'YYYY-MM') AS month
        FROM transactions t
        JOIN money_accounts a
          ON a.tenant_id = t.tenant_id AND a.id = COALESCE(t.destination_account_id, t.origin_account_id)
       WHERE t.tenant_id = ${tenantId}::uuid
         AND t.type IN ('income', 'expense')
         AND t.date BETWEEN ${start}::date AND ${end}::date
         ${accountFilter(Prisma.sql`a.id`, ids)}
    ), documents AS (
      SELECT a.currency_code AS currency, 'income' AS type, p.amount, p.category_id, c.name AS category_name
        FROM payments p
        JOIN money_accounts a ON a.tenant_id = p.tenant_id AND a.id = p.account_id
        LEFT JOIN payment_categories c ON c.tenant_id = p.tenant_id AND c.id = p.category_id
       WHERE p.tenant_id = ${tenantId}::uuid AND p.date BETWEEN ${start}::date AND ${end}::date
         ${accountFilter(Prisma.sql`a.id`, ids)}
      UNION ALL
      SELECT a.currency_code, 'expense', e.amount, e.category_id, c.name
        FROM expenses e
        JOIN money_accounts a ON a.tenant_id = e.tenant_id AND a.id = e.account_id
        LEFT JOIN expense_categories c ON c.tenant_id = e.tenant_id AND c.id = e.category_id
       WHERE e.tenant_id = ${tenantId}::uuid AND e.date BETWEEN ${start}::date AND ${end}::date
         ${accountFilter(Prisma.sql`a.id`, ids)}
    )
    SELECT currency, CASE WHEN GROUPING(month) = 0 THEN 'month' ELSE 'total' END AS kind, month,
           NULL AS type, NULL AS category_id, NULL AS category_name,
           COALESCE(sum(amount) FILTER (WHERE type = 'income'), 0)::text AS revenue,
           COALESCE(sum(amount) FILTER (WHERE type = 'expense'), 0)::text AS expenses,
           (COALESCE(sum(amount) FILTER (WHERE type = 'income'), 0)
            - COALESCE(sum(amount) FILTER (WHERE type = 'expense'), 0))::text AS net
      FROM entries
     GROUP BY GROUPING SETS ((currency), (currency, month))
    UNION ALL
    SELECT currency, 'category', NULL, type, category_id::text, category_name,
           (CASE WHEN type = 'income' THEN sum(amount) ELSE 0 END)::text,
           (CASE WHEN type = 'expense' THEN sum(amount) ELSE 0 END)::text,
           (CASE WHEN type = 'income' THEN sum(amount) ELSE -sum(amount) END)::text
      FROM documents
     GROUP BY currency, type, category_id, category_name
     ORDER BY currency, month NULLS FIRST, category_name NULLS LAST, category_id NULLS LAST`;

/** Each transaction as its account legs: money in to the destination, money out of the origin. */
const legs = (tenantId: string, since: Date, ids: string[] | null) => Prisma.sql`
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

const FLOW_NAMES = [
  "inflows",
  "outflows",
  "income",
  "expense",
  "transfers_in",
  "transfers_out",
  "exchanges_in",
  "exchanges_out",
] as const;

/**
 * An opening balance is where an account starts, not a movement: one dated within a report's range
 * counts in the report's opening balance and in no flow; one dated after the range is subtracted from
 * the closing balance like any later entry. So opening + flows = closing still holds.
 */
const OPENING = Prisma.sql`'opening_balance'`;
const atOpening = (end: Date) => Prisma.sql`(l.type <> ${OPENING} OR l.date > ${end}::date)`;

/** Flow sums over `legs` rows `l` up to the period's end (numeric; see `flowText`). */
const flowColumns = (end: Date) => Prisma.sql`
  COALESCE(sum(l.inflow) FILTER (WHERE l.date <= ${end}::date AND l.type <> ${OPENING}), 0) AS inflows,
  COALESCE(sum(l.outflow) FILTER (WHERE l.date <= ${end}::date AND l.type <> ${OPENING}), 0) AS outflows,
  COALESCE(sum(l.inflow) FILTER (WHERE l.date <= ${end}::date AND l.type = 'income'), 0) AS income,
  COALESCE(sum(l.outflow) FILTER (WHERE l.date <= ${end}::date AND l.type = 'expense'), 0) AS expense,
  COALESCE(sum(l.inflow) FILTER (WHERE l.date <= ${end}::date AND l.type = 'transfer'), 0) AS transfers_in,
  COALESCE(sum(l.outflow) FILTER (WHERE l.date <= ${end}::date AND l.type = 'transfer'), 0) AS transfers_out,
  COALESCE(sum(l.inflow) FILTER (WHERE l.date <= ${end}::date AND l.type = 'exchange'), 0) AS exchanges_in,
  COALESCE(sum(l.outflow) FILTER (WHERE l.date <= ${end}::date AND l.type = 'exchange'), 0) AS exchanges_out`;

/** The flow columns as decimal strings, optionally summed (per-currency totals). */
const flowText = (aggregate: "sum" | "none") =>
  Prisma.raw(
    FLOW_NAMES.map((name) =>
      aggregate === "sum" ? `sum(${name})::text AS ${name}` : `${name}::text AS ${name}`,
    ).join(", "),
  );

type FlowRow = {
  inflows: string;
  outflows: string;
  income: string;
  expense: string;
  transfers_in: string;
  transfers_out: string;
  exchanges_in: string;
  exchanges_out: string;
};

const flows = (row: FlowRow) => ({
  inflows: row.inflows,
  outflows: row.outflows,
  income: row.income,
  expense: row.expense,
  transfersIn: row.transfers_in,
  transfersOut: row.transfers_out,
  exchangesIn: row.exchanges_in,
  exchangesOut: row.exchanges_out,
});

type AccountFlowRow = FlowRow & {
  grouped_currency: number;
  id: string | null;
  name: string | null;
  currency: string;
  opening: string;
  closing: string;
};
type PeriodRow = FlowRow & { account_id: string; period: Date; opening: string; closing: string };

/** At most this many periods in one cash flow (a daily report over years would be millions of rows). */
export const MAX_CASHFLOW_PERIODS = 1000;

const DAY_MS = 86_400_000;

/** How many periods of `granularity` the range touches (UTC dates). */
const periodCount = (start: Date, end: Date, granularity: "day" | "week" | "month"): number => {
  if (granularity === "month") {
    return (end.getUTCFullYear() - start.getUTCFullYear()) * 12 + end.getUTCMonth() - start.getUTCMonth() + 1;
  }
  if (granularity === "day") return Math.round((end.getTime() - start.getTime()) / DAY_MS) + 1;
  const monday = (date: Date) => date.getTime() - ((date.getUTCDay() + 6) % 7) * DAY_MS;
  return Math.round((monday(end) - monday(start)) / (7 * DAY_MS)) + 1;
};

/**
 * One label format for periods across reports: "2026-11" for a month, the ISO week "2026-W47",
 * the date "2026-11-25" for a day.
 */
export const periodLabel = (first: Date, granularity: "day" | "week" | "month"): string => {
  const iso = toIsoDate(first);
  if (granularity === "month") return iso.slice(0, 7);
  if (granularity === "day") return iso;
  // ISO 8601: a week belongs to the year of its Thursday; week 1 holds the year's first Thursday.
  const thursday = new Date(first.getTime() + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return `${year}-W${String(week).padStart(2, "0")}`;
};

/** The last day of the period that starts on `first`. */
const periodEnd = (first: Date, granularity: "day" | "week" | "month"): Date => {
  if (granularity === "day") return first;
  if (granularity === "week") return new Date(first.getTime() + 6 * DAY_MS);
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
};
type MovementRow = {
  type: "transfer" | "exchange";
  from_id: string;
  to_id: string;
  count: number;
  amount: string;
  destination_amount: string;
};

export type StatementRow = {
  id: string;
  date: Date;
  type: "income" | "expense" | "transfer" | "exchange";
  comment: string;
  counter_account_id: string | null;
  payment_id: string | null;
  expense_id: string | null;
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
      (SELECT t.id, t.date, t.type, t.comment, t.destination_account_id AS counter_account_id, -t.amount AS change
         FROM transactions t
        WHERE t.tenant_id = ${tenantId}::uuid AND t.origin_account_id = ${accountId}::uuid
          AND t.date BETWEEN ${start}::date AND ${end}::date AND t.type <> 'opening_balance'
        ORDER BY t.date DESC, t.id DESC
        LIMIT ${reach})
      UNION ALL
      (SELECT t.id, t.date, t.type, t.comment, t.origin_account_id,
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
           r.change::text AS change, r.running::text AS running
      FROM running r
      LEFT JOIN payments p ON p.tenant_id = ${tenantId}::uuid AND p.transaction_id = r.id
      LEFT JOIN expenses e ON e.tenant_id = ${tenantId}::uuid AND e.transaction_id = r.id
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
      (SELECT t.id, t.date, t.type, t.comment, t.destination_account_id AS counter_account_id, -t.amount AS change
         FROM transactions t
        WHERE t.tenant_id = ${tenantId}::uuid AND t.origin_account_id = ${accountId}::uuid
          AND t.date BETWEEN ${start}::date AND ${end}::date AND t.type <> 'opening_balance' ${after}
        ORDER BY t.date, t.id
        LIMIT ${reach})
      UNION ALL
      (SELECT t.id, t.date, t.type, t.comment, t.origin_account_id,
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
           r.change::text AS change, r.running::text AS running
      FROM running r
      LEFT JOIN payments p ON p.tenant_id = ${tenantId}::uuid AND p.transaction_id = r.id
      LEFT JOIN expenses e ON e.tenant_id = ${tenantId}::uuid AND e.transaction_id = r.id
     ORDER BY r.date, r.id
     LIMIT ${options.limit} OFFSET ${options.offset}`;
};

export const createReportsService = (deps: { db: Db }) => {
  const { db } = deps;

  return {
    incomeStatement: async (ctx: TenantContext, raw: TIncomeStatementQuery): Promise<TIncomeStatement> => {
      requirePermission(ctx, "reports:read:all");
      const query = parseInput(ZIncomeStatementQuery, raw);
      const ids = accountIdsOf(query.accountId);
      const rows = await db.withTenant(
        ctx.tenantId,
        async (tx) => {
          await assertAccountsExist(tx, ctx.tenantId, ids);
          return incomeStatement(tx, ctx.tenantId, dateOf(query.startDate), dateOf(query.endDate), ids);
        },
        { snapshot: true },
      );
      const currencies = rows
        .filter((row) => row.kind === "total")
        .map((total) => {
          const mine = rows.filter((row) => row.currency === total.currency);
          const byCategory = (type: "income" | "expense") =>
            mine
              .filter((row) => row.kind === "category" && row.type === type)
              .map((row) => ({
                categoryId: row.category_id,
                categoryName: row.category_name,
                amount: type === "income" ? row.revenue : row.expenses,
              }));
          return {
            currency: total.currency,
            revenue: total.revenue,
            expenses: total.expenses,
            netIncome: total.net,
            revenueByCategory: byCategory("income"),
            expensesByCategory: byCategory("expense"),
            byMonth: mine
              .filter((row) => row.kind === "month")
              .map((row) => ({
                month: row.month ?? "",
                revenue: row.revenue,
                expenses: row.expenses,
                netIncome: row.net,
              })),
          };
        });
      return { startDate: query.startDate, endDate: query.endDate, accountIds: ids, currencies };
    },

    cashflow: async (ctx: TenantContext, raw: TCashflowQuery): Promise<TCashflowReport> => {
      requirePermission(ctx, "reports:read:all");
      const query = parseInput(ZCashflowQuery, raw);
      const ids = accountIdsOf(query.accountId);
      const start = dateOf(query.startDate);
      const end = dateOf(query.endDate);
      if (periodCount(start, end, query.granularity) > MAX_CASHFLOW_PERIODS) {
        throw validationError([
          {
            path: "granularity",
            message: `must be longer for this range (at most ${MAX_CASHFLOW_PERIODS} periods)`,
          },
        ]);
      }
      const { accounts, periods, movements } = await db.withTenant(
        ctx.tenantId,
        async (tx) => {
          await assertAccountsExist(tx, ctx.tenantId, ids);
          // Per account and, by GROUPING SETS, per currency. Opening = stored balance − everything
          // posted from the start on; closing = stored balance − everything posted after the end.
          const accounts = await tx.$queryRaw<AccountFlowRow[]>`
            WITH l AS (${legs(ctx.tenantId, start, ids)}),
            per_account AS (
              SELECT a.id, a.name, a.currency_code,
                     a.balance - COALESCE(sum(l.inflow - l.outflow) FILTER (WHERE ${atOpening(end)}), 0) AS opening,
                     a.balance - COALESCE(sum(l.inflow - l.outflow) FILTER (WHERE l.date > ${end}::date), 0) AS closing,
                     ${flowColumns(end)}
                FROM money_accounts a
                LEFT JOIN l ON l.account_id = a.id
               WHERE a.tenant_id = ${ctx.tenantId}::uuid ${accountFilter(Prisma.sql`a.id`, ids)}
               GROUP BY a.id
            )
            SELECT 0 AS grouped_currency, id::text, name, currency_code AS currency,
                   opening::text AS opening, closing::text AS closing, ${flowText("none")}
              FROM per_account
            UNION ALL
            SELECT 1, NULL, NULL, currency_code, sum(opening)::text, sum(closing)::text, ${flowText("sum")}
              FROM per_account
             GROUP BY currency_code
             ORDER BY grouped_currency, currency, name, id`;
          // Every period of the range, empty ones included, per account: its flows, and its opening
          // and closing balance (the report's opening plus the net flows of the periods up to it).
          const periods = await tx.$queryRaw<PeriodRow[]>`
            WITH l AS (${legs(ctx.tenantId, start, ids)}),
            opening AS (
              SELECT a.id, a.balance - COALESCE(sum(l.inflow - l.outflow) FILTER (WHERE ${atOpening(end)}), 0) AS opening
                FROM money_accounts a
                LEFT JOIN l ON l.account_id = a.id
               WHERE a.tenant_id = ${ctx.tenantId}::uuid ${accountFilter(Prisma.sql`a.id`, ids)}
               GROUP BY a.id
            ),
            calendar AS (
              SELECT generate_series(date_trunc(${query.granularity}::text, ${start}::timestamp),
                                     ${end}::timestamp, ${`1 ${query.granularity}`}::interval)::date AS period
            ),
            per_period AS (
              SELECT l.account_id, date_trunc(${query.granularity}::text, l.date::timestamp)::date AS period, ${flowColumns(end)}
                FROM l
               WHERE l.date <= ${end}::date
               GROUP BY l.account_id, 2
            ),
            grid AS (
              SELECT o.id AS account_id, c.period, o.opening,
                     COALESCE(p.inflows, 0) AS inflows, COALESCE(p.outflows, 0) AS outflows,
                     COALESCE(p.income, 0) AS income, COALESCE(p.expense, 0) AS expense,
                     COALESCE(p.transfers_in, 0) AS transfers_in, COALESCE(p.transfers_out, 0) AS transfers_out,
                     COALESCE(p.exchanges_in, 0) AS exchanges_in, COALESCE(p.exchanges_out, 0) AS exchanges_out
                FROM opening o
               CROSS JOIN calendar c
                LEFT JOIN per_period p ON p.account_id = o.id AND p.period = c.period
            ), running AS (
              SELECT grid.*, opening + sum(inflows - outflows) OVER (
                       PARTITION BY account_id ORDER BY period ROWS UNBOUNDED PRECEDING) AS closing
                FROM grid
            )
            SELECT account_id::text AS account_id, period,
                   (closing - inflows + outflows)::text AS opening, closing::text AS closing, ${flowText("none")}
              FROM running
             ORDER BY account_id, period`;
          const movements = await tx.$queryRaw<MovementRow[]>`
            SELECT t.type::text AS type, t.origin_account_id::text AS from_id,
                   t.destination_account_id::text AS to_id, count(*)::int AS count,
                   sum(t.amount)::text AS amount,
                   sum(COALESCE(t.destination_amount, t.amount))::text AS destination_amount
              FROM transactions t
             WHERE t.tenant_id = ${ctx.tenantId}::uuid
               AND t.type IN ('transfer', 'exchange')
               AND t.date BETWEEN ${start}::date AND ${end}::date
               ${ids ? Prisma.sql`AND (t.origin_account_id = ANY(${ids}::uuid[]) OR t.destination_account_id = ANY(${ids}::uuid[]))` : Prisma.empty}
             GROUP BY t.type, t.origin_account_id, t.destination_account_id
             ORDER BY t.type, from_id, to_id`;
          return { accounts, periods, movements };
        },
        { snapshot: true },
      );
      return {
        startDate: query.startDate,
        endDate: query.endDate,
        granularity: query.granularity,
        accounts: accounts
          .filter((row) => row.grouped_currency === 0 && row.id)
          .map((row) => ({
            accountId: row.id ?? "",
            name: row.name ?? "",
            currency: row.currency,
            openingBalance: row.opening,
            closingBalance: row.closing,
            ...flows(row),
            periods: periods
              .filter((period) => period.account_id === row.id)
              .map((period) => {
                const last = periodEnd(period.period, query.granularity);
                return {
                  period: periodLabel(period.period, query.granularity),
                  // The period as far as it lies within the report's range.
                  startDate: toIsoDate(period.period < start ? start : period.period),
                  endDate: toIsoDate(last > end ? end : last),
                  openingBalance: period.opening,
                  closingBalance: period.closing,
                  ...flows(period),
                };
              }),
          })),
        totals: accounts
          .filter((row) => row.grouped_currency === 1)
          .map((row) => ({
            currency: row.currency,
            openingBalance: row.opening,
            closingBalance: row.closing,
            ...flows(row),
          })),
        movements: movements.map((row) => ({
          type: row.type,
          fromAccountId: row.from_id,
          toAccountId: row.to_id,
          count: row.count,
          amount: row.amount,
          destinationAmount: row.destination_amount,
        })),
      };
    },

    accountStatement: async (
      ctx: TenantContext,
      accountId: string,
      raw: TAccountStatementQuery,
    ): Promise<TAccountStatement> => {
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
    },
  };
};

export type ReportsService = ReturnType<typeof createReportsService>;
