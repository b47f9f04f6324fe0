import { type Db, Prisma } from "@hisob/db";
import { parseInput, requirePermission, type TenantContext, validationError } from "@hisob/kernel";
import { dateOf, toIsoDate } from "@hisob/kernel/schema";
import { accountNotFound } from "../accounts/accounts.service";
import { comparedFigures, comparedPeriod, compareListOf } from "./comparison";
import { accountIdsOf, OPENING, queryRaw } from "./report-sql";
import {
  CASHFLOW_FIGURES,
  type TCashflowQuery,
  type TCashflowReport,
  ZCashflowQuery,
} from "./reports.schema";

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
 * The flows of legs `l` (one row per account, day and type): everything in and out except opening
 * balances (see `OPENING`), and per kind.
 */
const legFlows = Prisma.sql`
  COALESCE(sum(l.inflow) FILTER (WHERE l.type <> ${OPENING}), 0) AS inflows,
  COALESCE(sum(l.outflow) FILTER (WHERE l.type <> ${OPENING}), 0) AS outflows,
  COALESCE(sum(l.inflow) FILTER (WHERE l.type = 'income'), 0) AS income,
  COALESCE(sum(l.outflow) FILTER (WHERE l.type = 'expense'), 0) AS expense,
  COALESCE(sum(l.inflow) FILTER (WHERE l.type = 'transfer'), 0) AS transfers_in,
  COALESCE(sum(l.outflow) FILTER (WHERE l.type = 'transfer'), 0) AS transfers_out,
  COALESCE(sum(l.inflow) FILTER (WHERE l.type = 'exchange'), 0) AS exchanges_in,
  COALESCE(sum(l.outflow) FILTER (WHERE l.type = 'exchange'), 0) AS exchanges_out`;

/** The flow columns of `alias` summed (`COALESCE` for an account without a period row). */
const summedFlows = (alias: string) =>
  Prisma.raw(FLOW_NAMES.map((name) => `COALESCE(sum(${alias}.${name}), 0) AS ${name}`).join(", "));

/** The flow columns as decimal strings, each through `wrap` (e.g. a sum, a COALESCE). */
const flowText = (wrap: (name: string) => string = (name) => name) =>
  Prisma.raw(FLOW_NAMES.map((name) => `${wrap(name)}::text AS ${name}`).join(", "));

/** The same columns as NULLs, for the result rows of another kind. */
const noFlows = Prisma.raw(FLOW_NAMES.map((name) => `NULL::text AS ${name}`).join(", "));

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

/** The figures of an account's or a currency's row, as the report names them. */
const cashflowFigures = (row: FlowRow & { opening: string | null; closing: string | null }) => ({
  openingBalance: row.opening ?? "0",
  closingBalance: row.closing ?? "0",
  ...flows(row),
});

/** One period of an account, as the report shows it. */
type PeriodFigures = TCashflowReport["accounts"][number]["periods"][number];

/** A period's figures as the statement sends them: opening, closing and the flows in `FLOW_NAMES` order. */
type PeriodValues = [string, string, string, string, string, string, string, string, string, string];

/** A period's label, first and last day within the range (ISO dates). */
type CalendarEntry = [string, string, string];

/** An account's periods from its figures and the report's calendar (both in period order). */
const periodsOf = (values: PeriodValues[], calendar: CalendarEntry[]): PeriodFigures[] =>
  values.map((figures, index) => {
    const [label = "", startDate = "", endDate = ""] = calendar[index] ?? [];
    const [openingBalance, closingBalance, inflows, outflows, income, expense, ...moves] = figures;
    const [transfersIn = "0", transfersOut = "0", exchangesIn = "0", exchangesOut = "0"] = moves;
    return {
      period: label,
      startDate,
      endDate,
      openingBalance,
      closingBalance,
      inflows,
      outflows,
      income,
      expense,
      transfersIn,
      transfersOut,
      exchangesIn,
      exchangesOut,
    };
  });

/**
 * One row of the report's one result set. `kind` says which: an account (`account_id`, `name`,
 * `currency`, balances and flows), a currency's totals (`currency`, balances, flows), an account's
 * periods (`account_id`, `periods`: each period's `PeriodValues`, in order, as one JSON array), the
 * calendar (`periods`: each period's `CalendarEntry`, in order; one row) or a movement between
 * accounts (`type`, `account_id` the origin, `to_id`, `count`, `amount`, `destination_amount`).
 * `ord` orders the rows of a kind (the statement does not sort its result: see `cashflowSql`).
 */
type CashflowRow = FlowRow & {
  kind: "account" | "currency" | "periods" | "calendar" | "movement";
  ord: number;
  account_id: string | null;
  name: string | null;
  currency: string | null;
  opening: string | null;
  closing: string | null;
  periods: PeriodValues[] | CalendarEntry[] | null;
  type: "transfer" | "exchange" | null;
  to_id: string | null;
  count: number | null;
  amount: string | null;
  destination_amount: string | null;
};

/** At most this many periods in one cash flow (a daily report over years would be millions of rows). */
export const MAX_CASHFLOW_PERIODS = 1000;

const DAY_MS = 86_400_000;

/** How many periods of `granularity` the range touches (UTC dates). */
export const periodCount = (start: Date, end: Date, granularity: "day" | "week" | "month"): number => {
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

/**
 * `periodLabel` in SQL, for the report's period rows (`to_char`; IYYY and IW are the ISO week's year
 * and number): labels computed in the statement, not per row in JavaScript.
 */
const PERIOD_LABEL = { month: "YYYY-MM", week: 'IYYY-"W"IW', day: "YYYY-MM-DD" } as const;

/**
 * The whole report as one statement over one scan of the period's ledger. The period's transactions
 * are summed per origin, destination, period and type (`g`: one row per pair of accounts, period and
 * type, hashed in parallel — decision 0106: per day it was ~10× the rows, and without the
 * `transactions_flow_groups` statistics the planner sorted the whole ledger for it); the account legs (money in to the destination, out of the origin) and the
 * movements between accounts come from those sums. The closing balance is the stored balance minus
 * what was posted after the end, read from the balance checkpoints (`account_day_totals`: per
 * account and day, `change` the entries, `opening` the opening-balance entries), so the ledger is
 * read for [start, end] only; the opening balance is the closing balance minus the period's flows
 * (opening-balance entries dated within the period are no flow: they stay in the opening balance).
 * One statement sees one snapshot, so no transaction needs to hold one.
 *
 * Each account's periods come as ONE row holding their figures as a JSON array of arrays, and the
 * periods' labels and days as one more row (decision 0109): by week that is 53,000 periods over 1,000
 * accounts, and as rows of their own the driver's per-row work (a message, twenty columns, an
 * object) and the reshaping cost more than the statement. The calendar is a series of `periods`
 * steps (so PostgreSQL knows its size, 53 rather than a guessed 1,000) with each period's label and
 * days computed once, not per account; and the result is not sorted (`ord` orders each kind's rows
 * in JavaScript): a final sort would carry every account's periods.
 */
export const cashflowSql = (o: {
  tenantId: string;
  start: string;
  end: string;
  granularity: "day" | "week" | "month";
  /** How many periods of the granularity the range touches (`periodCount`). */
  periods: number;
  ids: string[] | null;
}) => {
  const mentions = o.ids
    ? Prisma.sql`AND (t.origin_account_id = ANY(${o.ids}::uuid[]) OR t.destination_account_id = ANY(${o.ids}::uuid[]))`
    : Prisma.empty;
  const accounts = o.ids ? Prisma.sql`AND a.id = ANY(${o.ids}::uuid[])` : Prisma.empty;
  return Prisma.sql`
    WITH g AS (
      SELECT t.origin_account_id AS origin, t.destination_account_id AS destination,
             date_trunc(${o.granularity}::text, t.date::timestamp)::date AS period, t.type,
             count(*) AS n, sum(t.amount) AS sent, sum(COALESCE(t.destination_amount, t.amount)) AS received
        FROM transactions t
       WHERE t.tenant_id = ${o.tenantId}::uuid AND t.date BETWEEN ${o.start}::date AND ${o.end}::date ${mentions}
       GROUP BY t.origin_account_id, t.destination_account_id, 3, t.type
    ), l AS (
      SELECT destination AS account_id, period, type, received AS inflow, 0 AS outflow FROM g WHERE destination IS NOT NULL
      UNION ALL
      SELECT origin, period, type, 0, sent FROM g WHERE origin IS NOT NULL
    ), per_period AS (
      SELECT l.account_id, l.period, ${legFlows}
        FROM l
       GROUP BY l.account_id, l.period
    ), per_account AS (
      SELECT a.id, a.name, a.currency_code,
             a.balance - COALESCE((SELECT sum(d.change + d.opening) FROM account_day_totals d
                                    WHERE d.tenant_id = a.tenant_id AND d.account_id = a.id
                                      AND d.date > ${o.end}::date), 0) AS closing,
             ${summedFlows("p")}
        FROM money_accounts a
        LEFT JOIN per_period p ON p.account_id = a.id
       WHERE a.tenant_id = ${o.tenantId}::uuid ${accounts}
       GROUP BY a.id
    ), calendar AS (
      -- Each period of the range with its label and its days within the range, computed once.
      SELECT c.period, to_char(c.period, ${PERIOD_LABEL[o.granularity]}::text) AS label,
             GREATEST(c.period, ${o.start}::date)::text AS first_day,
             LEAST((c.period + ${`1 ${o.granularity}`}::interval - interval '1 day')::date, ${o.end}::date)::text AS last_day
        FROM (SELECT (date_trunc(${o.granularity}::text, ${o.start}::timestamp)
                      + step * ${`1 ${o.granularity}`}::interval)::date AS period
                FROM generate_series(0, ${o.periods}::int - 1) AS step) c
    ), grid AS (
      -- Every period of the range, empty ones included, per account; its closing balance is the
      -- report's opening plus the net flows of the periods up to it.
      SELECT a.id AS account_id, c.period, c.label, c.first_day, c.last_day,
             ${Prisma.raw(FLOW_NAMES.map((name) => `COALESCE(p.${name}, 0) AS ${name}`).join(", "))},
             a.closing - a.inflows + a.outflows + sum(COALESCE(p.inflows, 0) - COALESCE(p.outflows, 0)) OVER (
               PARTITION BY a.id ORDER BY c.period ROWS UNBOUNDED PRECEDING) AS closing
        FROM per_account a
       CROSS JOIN calendar c
        LEFT JOIN per_period p ON p.account_id = a.id AND p.period = c.period
    )
    SELECT 'account' AS kind, (row_number() OVER (ORDER BY currency_code, name, id))::int AS ord,
           id::text AS account_id, name, currency_code AS currency,
           (closing - inflows + outflows)::text AS opening, closing::text AS closing, ${flowText()},
           NULL::json AS periods, NULL::text AS type, NULL::text AS to_id, NULL::int AS count,
           NULL::text AS amount, NULL::text AS destination_amount
      FROM per_account
    UNION ALL
    SELECT 'currency', (row_number() OVER (ORDER BY currency_code))::int, NULL, NULL, currency_code,
           sum(closing - inflows + outflows)::text, sum(closing)::text, ${flowText((name) => `sum(${name})`)},
           NULL, NULL, NULL, NULL, NULL, NULL
      FROM per_account
     GROUP BY currency_code
    UNION ALL
    -- An account's periods in order, each its opening and closing balance and flows (as text: exact).
    SELECT 'periods', 0, account_id::text, NULL, NULL, NULL, NULL, ${noFlows},
           json_agg(json_build_array((closing - inflows + outflows)::text, closing::text,
             ${Prisma.raw(FLOW_NAMES.map((name) => `${name}::text`).join(", "))}) ORDER BY period),
           NULL, NULL, NULL, NULL, NULL
      FROM grid
     GROUP BY account_id
    UNION ALL
    -- The periods' labels and days, once: [label, first day, last day] in order.
    SELECT 'calendar', 0, NULL, NULL, NULL, NULL, NULL, ${noFlows},
           json_agg(json_build_array(label, first_day, last_day) ORDER BY period), NULL, NULL, NULL, NULL, NULL
      FROM calendar
    UNION ALL
    SELECT 'movement', (row_number() OVER (ORDER BY type, origin::text, destination::text))::int, origin::text,
           NULL, NULL, NULL, NULL, ${noFlows}, NULL,
           type::text, destination::text, sum(n)::int, sum(sent)::text, sum(received)::text
      FROM g
     WHERE type IN ('transfer', 'exchange')
     GROUP BY type, origin, destination`;
};

/** Opening, flows and closing per account and currency, per period, and the movements between accounts. */
export const cashflowReport =
  ({ db }: { db: Db }) =>
  async (ctx: TenantContext, raw: TCashflowQuery): Promise<TCashflowReport> => {
    requirePermission(ctx, "reports:read:all");
    const query = parseInput(ZCashflowQuery, raw);
    const ids = accountIdsOf(query.accountId);
    const periodsInRange = (from: string, to: string) =>
      periodCount(dateOf(from), dateOf(to), query.granularity);
    if (periodsInRange(query.startDate, query.endDate) > MAX_CASHFLOW_PERIODS) {
      throw validationError([
        {
          path: "granularity",
          message: `must be longer for this range (at most ${MAX_CASHFLOW_PERIODS} periods)`,
        },
      ]);
    }
    const compared = compareListOf(query.compare).map((compare) => ({
      compare,
      ...comparedPeriod(compare, query.startDate, query.endDate),
    }));
    const periods = [{ startDate: query.startDate, endDate: query.endDate }, ...compared];
    const [rows = [], ...comparedRows] = await db.rawTx.withTenant(
      ctx.tenantId,
      async (tx) => {
        const results: CashflowRow[][] = [];
        for (const [index, period] of periods.entries()) {
          results.push(
            await queryRaw<CashflowRow>(
              tx,
              cashflowSql({
                tenantId: ctx.tenantId,
                start: period.startDate,
                end: period.endDate,
                granularity: query.granularity,
                periods: periodsInRange(period.startDate, period.endDate),
                ids,
              }),
              // The transaction's last statement: the transaction commits with it, one round trip (raw-tenant.ts).
              { commit: index === periods.length - 1 },
            ),
          );
        }
        return results;
      },
      { readOnly: true, signal: ctx.signal },
    );
    // Each compared period's account and currency rows by kind and key (a find per row would be
    // quadratic in the accounts).
    const comparedIndex = comparedRows.map((list) => {
      const byKey = new Map<string, CashflowRow>();
      for (const row of list) {
        if (row.kind === "account") byKey.set(`account:${row.account_id}`, row);
        else if (row.kind === "currency") byKey.set(`currency:${row.currency}`, row);
      }
      return byKey;
    });
    /** A compared period's figures of an account (by id) or a currency's totals (by code). */
    const comparedOf = (kind: "account" | "currency", value: string) =>
      compared.map((period, index) => {
        const row = comparedIndex[index]?.get(`${kind}:${value}`);
        return { compare: period.compare, row };
      });
    const withCompared = (
      row: CashflowRow,
      kind: "account" | "currency",
      key: (row: CashflowRow) => string | null,
    ) => {
      const figures = cashflowFigures(row);
      return {
        ...figures,
        compared: comparedOf(kind, key(row) ?? "").map(({ compare, row: other }) => ({
          compare,
          ...comparedFigures(CASHFLOW_FIGURES, figures, other ? cashflowFigures(other) : undefined),
        })),
      };
    };
    // The statement leaves its rows unsorted; `ord` orders those of a kind.
    const ofKind = (kind: CashflowRow["kind"]) =>
      rows.filter((row) => row.kind === kind).sort((x, y) => x.ord - y.ord);
    const accounts = ofKind("account");
    // A report limited to accounts names accounts of this organization: another tenant's (or an
    // unknown) id is NOT_FOUND, as the account statement answers, not an empty report.
    if (ids && accounts.length !== ids.length) throw accountNotFound();
    // Each account's periods (one row per account), by id, labelled from the one calendar row.
    const calendar = (rows.find((row) => row.kind === "calendar")?.periods ?? []) as CalendarEntry[];
    const periodsById = new Map<string, PeriodFigures[]>();
    for (const row of rows) {
      if (row.kind === "periods")
        periodsById.set(row.account_id ?? "", periodsOf((row.periods ?? []) as PeriodValues[], calendar));
    }
    return {
      startDate: query.startDate,
      endDate: query.endDate,
      granularity: query.granularity,
      comparedPeriods: compared,
      accounts: accounts.map((row) => ({
        accountId: row.account_id ?? "",
        name: row.name ?? "",
        currency: row.currency ?? "",
        ...withCompared(row, "account", (account) => account.account_id),
        periods: periodsById.get(row.account_id ?? "") ?? [],
      })),
      totals: ofKind("currency").map((row) => ({
        currency: row.currency ?? "",
        ...withCompared(row, "currency", (total) => total.currency),
      })),
      movements: ofKind("movement").map((row) => ({
        type: row.type ?? "transfer",
        fromAccountId: row.account_id ?? "",
        toAccountId: row.to_id ?? "",
        count: row.count ?? 0,
        amount: row.amount ?? "0",
        destinationAmount: row.destination_amount ?? "0",
      })),
    };
  };
