import { type Db, Prisma } from "@hisob/db";
import { parseInput, requirePermission, type TenantContext, validationError } from "@hisob/kernel";
import { dateOf, toIsoDate } from "../dates";
import {
  accountFilter,
  accountIdsOf,
  assertAccountsExist,
  atOpening,
  dailyLegs,
  OPENING,
} from "./report-sql";
import { type TCashflowQuery, type TCashflowReport, ZCashflowQuery } from "./reports.schema";

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

/** Opening, flows and closing per account and currency, per period, and the movements between accounts. */
export const cashflowReport =
  ({ db }: { db: Db }) =>
  async (ctx: TenantContext, raw: TCashflowQuery): Promise<TCashflowReport> => {
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
            WITH l AS (${dailyLegs(ctx.tenantId, start, ids)}),
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
            WITH l AS (${dailyLegs(ctx.tenantId, start, ids)}),
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
  };
