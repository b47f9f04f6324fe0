import { type Db, Prisma } from "@hisob/db";
import { parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { dateOf } from "@hisob/kernel/schema";
import { comparedFigures, comparedPeriod, compareListOf } from "./comparison";
import { accountFilter, accountIdsOf, assertFiltersExist, queryRaw } from "./report-sql";
import {
  INCOME_FIGURES,
  type TIncomeStatement,
  type TIncomeStatementQuery,
  ZIncomeStatementQuery,
} from "./reports.schema";

type IncomeRow = {
  /** 0: the period asked for; 1, 2…: the compared periods, in order (their total rows only). */
  part: number;
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

/** What the statement is limited to besides the period: accounts, categories, counterparties. */
type Filters = { ids: string[] | null; categoryIds: string[] | null; counterpartyIds: string[] | null };

/** `AND` the document `d`'s category and counterparty are among those asked for (nothing when none are). */
const documentFilter = (d: string, filters: Filters) => {
  const column = (name: string) => Prisma.raw(`${d}.${name}`);
  return Prisma.sql`${
    filters.categoryIds
      ? Prisma.sql`AND ${column("category_id")} = ANY(${filters.categoryIds}::uuid[])`
      : Prisma.empty
  } ${
    filters.counterpartyIds
      ? Prisma.sql`AND ${column("counterparty_id")} = ANY(${filters.counterpartyIds}::uuid[])`
      : Prisma.empty
  }`;
};

/**
 * Each income or expense entry's account, type, day and amount: from the ledger alone — or, limited
 * to categories or counterparties (which only the payments and expenses carry), from those documents,
 * each of which carries its ledger entry's account, amount and date
 * (docs/decisions/0088-report-filters-and-comparison.md).
 */
const entryRows = (tenantId: string, start: Date, end: Date, filters: Filters) =>
  filters.categoryIds || filters.counterpartyIds
    ? Prisma.sql`
      SELECT p.account_id, 'income' AS type, p.date, p.amount
        FROM payments p
       WHERE p.tenant_id = ${tenantId}::uuid AND p.date BETWEEN ${start}::date AND ${end}::date
         ${accountFilter(Prisma.sql`p.account_id`, filters.ids)} ${documentFilter("p", filters)}
      UNION ALL
      SELECT e.account_id, 'expense', e.date, e.amount
        FROM expenses e
       WHERE e.tenant_id = ${tenantId}::uuid AND e.date BETWEEN ${start}::date AND ${end}::date
         ${accountFilter(Prisma.sql`e.account_id`, filters.ids)} ${documentFilter("e", filters)}`
    : Prisma.sql`
      SELECT COALESCE(t.destination_account_id, t.origin_account_id) AS account_id, t.type, t.date, t.amount
        FROM transactions t
       WHERE t.tenant_id = ${tenantId}::uuid
         AND t.type IN ('income', 'expense')
         AND t.date BETWEEN ${start}::date AND ${end}::date
         ${accountFilter(Prisma.sql`COALESCE(t.destination_account_id, t.origin_account_id)`, filters.ids)}`;

/** The statement's one SQL statement (exported for bench/profile-reports.ts's EXPLAIN). */
export const incomeStatementSql = (tenantId: string, start: Date, end: Date, filters: Filters) =>
  // Totals and months from the ledger; the category split from the documents (a payment or expense
  // carries its entry's amount and date, which reconcile checks), so no per-entry joins are needed.
  Prisma.sql`
    WITH entries AS (
      -- The entries joined to the (few) accounts and summed per currency, type and month: a handful
      -- of groups, hashed in parallel whatever the number of accounts. (Summing per account and day
      -- first made ~100,000 groups over 1,000 accounts, sorted on disk: 2.2 s against 0.7 s, same sums.)
      -- The month is of the date as a timestamp without time zone: no session time zone in it.
      SELECT a.currency_code AS currency, l.type, sum(l.amount) AS amount,
             to_char(date_trunc('month', l.date::timestamp), 'YYYY-MM') AS month
        FROM (${entryRows(tenantId, start, end, filters)}) l
        JOIN money_accounts a ON a.tenant_id = ${tenantId}::uuid AND a.id = l.account_id
       GROUP BY a.currency_code, l.type, date_trunc('month', l.date::timestamp)
    ), documents AS (
      SELECT a.currency_code AS currency, 'income' AS type, p.amount, p.category_id, c.name AS category_name
        FROM payments p
        JOIN money_accounts a ON a.tenant_id = p.tenant_id AND a.id = p.account_id
        LEFT JOIN payment_categories c ON c.tenant_id = p.tenant_id AND c.id = p.category_id
       WHERE p.tenant_id = ${tenantId}::uuid AND p.date BETWEEN ${start}::date AND ${end}::date
         ${accountFilter(Prisma.sql`a.id`, filters.ids)} ${documentFilter("p", filters)}
      UNION ALL
      SELECT a.currency_code, 'expense', e.amount, e.category_id, c.name
        FROM expenses e
        JOIN money_accounts a ON a.tenant_id = e.tenant_id AND a.id = e.account_id
        LEFT JOIN expense_categories c ON c.tenant_id = e.tenant_id AND c.id = e.category_id
       WHERE e.tenant_id = ${tenantId}::uuid AND e.date BETWEEN ${start}::date AND ${end}::date
         ${accountFilter(Prisma.sql`a.id`, filters.ids)} ${documentFilter("e", filters)}
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

/** A compared period's totals per currency: revenue, expenses, net (rows of kind "total"). */
const comparedTotalsSql = (tenantId: string, start: Date, end: Date, filters: Filters) => Prisma.sql`
  SELECT a.currency_code AS currency, 'total' AS kind, NULL AS month, NULL AS type, NULL AS category_id,
         NULL AS category_name,
         COALESCE(sum(l.amount) FILTER (WHERE l.type = 'income'), 0)::text AS revenue,
         COALESCE(sum(l.amount) FILTER (WHERE l.type = 'expense'), 0)::text AS expenses,
         (COALESCE(sum(l.amount) FILTER (WHERE l.type = 'income'), 0)
          - COALESCE(sum(l.amount) FILTER (WHERE l.type = 'expense'), 0))::text AS net
    FROM (${entryRows(tenantId, start, end, filters)}) l
    JOIN money_accounts a ON a.tenant_id = ${tenantId}::uuid AND a.id = l.account_id
   GROUP BY a.currency_code`;

/**
 * The period's statement and each compared period's totals as ONE statement (`part` tells them
 * apart), so all of them are read in one snapshot with no snapshot transaction to hold, in one round
 * trip on the driver.
 */
const statementWithCompared = (
  tenantId: string,
  period: { start: Date; end: Date },
  compared: Array<{ start: Date; end: Date }>,
  filters: Filters,
) =>
  Prisma.sql`
    SELECT 0 AS part, s.* FROM (${incomeStatementSql(tenantId, period.start, period.end, filters)}) s
    ${
      compared.length === 0
        ? Prisma.empty
        : Prisma.join(
            compared.map(
              (other, index) =>
                Prisma.sql`UNION ALL SELECT ${index + 1}::int, c.* FROM (${comparedTotalsSql(tenantId, other.start, other.end, filters)}) c`,
            ),
            " ",
          )
    }
    ORDER BY part, currency, month NULLS FIRST, category_name NULLS LAST, category_id NULLS LAST`;

/** Per currency: the income statement's figures of a compared period (the total rows only). */
const totalsByCurrency = (rows: IncomeRow[]) =>
  new Map(
    rows
      .filter((row) => row.kind === "total")
      .map((row) => [row.currency, { revenue: row.revenue, expenses: row.expenses, netIncome: row.net }]),
  );

/**
 * Revenue and expenses per currency: totals, by month and by category; with `compare`, each
 * currency's totals beside those of the compared periods (the same statement run for each, in the
 * same snapshot). A currency with entries only in a compared period gets a section of zeros, so its
 * fall to nothing shows.
 */
export const incomeStatementReport =
  ({ db }: { db: Db }) =>
  async (ctx: TenantContext, raw: TIncomeStatementQuery): Promise<TIncomeStatement> => {
    requirePermission(ctx, "reports:read:all");
    const query = parseInput(ZIncomeStatementQuery, raw);
    const ids = accountIdsOf(query.accountId);
    const filters: Filters = {
      ids,
      categoryIds: accountIdsOf(query.categoryId),
      counterpartyIds: accountIdsOf(query.counterpartyId),
    };
    const compared = compareListOf(query.compare).map((compare) => ({
      compare,
      ...comparedPeriod(compare, query.startDate, query.endDate),
    }));
    const all = await db.rawTx.withTenant(
      ctx.tenantId,
      async (tx) => {
        await assertFiltersExist(tx, ctx.tenantId, filters);
        return queryRaw<IncomeRow>(
          tx,
          statementWithCompared(
            ctx.tenantId,
            { start: dateOf(query.startDate), end: dateOf(query.endDate) },
            compared.map((period) => ({ start: dateOf(period.startDate), end: dateOf(period.endDate) })),
            filters,
          ),
          // The transaction's last statement: it commits with it, in the same round trip (raw-tenant.ts).
          { commit: true },
        );
      },
      { readOnly: true, signal: ctx.signal },
    );
    const rows = all.filter((row) => row.part === 0);
    const comparedRows = compared.map((_, index) =>
      totalsByCurrency(all.filter((row) => row.part === index + 1)),
    );
    const own = totalsByCurrency(rows);
    const currencyCodes = [
      ...new Set([...own.keys(), ...comparedRows.flatMap((totals) => [...totals.keys()])]),
    ].sort();
    const currencies = currencyCodes.map((currency) => {
      const mine = rows.filter((row) => row.currency === currency);
      const figures = own.get(currency) ?? { revenue: "0", expenses: "0", netIncome: "0" };
      const byCategory = (type: "income" | "expense") =>
        mine
          .filter((row) => row.kind === "category" && row.type === type)
          .map((row) => ({
            categoryId: row.category_id,
            categoryName: row.category_name,
            amount: type === "income" ? row.revenue : row.expenses,
          }));
      return {
        currency,
        ...figures,
        compared: compared.map((period, index) => ({
          compare: period.compare,
          ...comparedFigures(INCOME_FIGURES, figures, comparedRows[index]?.get(currency)),
        })),
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
    return {
      startDate: query.startDate,
      endDate: query.endDate,
      accountIds: ids,
      comparedPeriods: compared,
      currencies,
    };
  };
