import { type Db, Prisma, type Tx } from "@hisob/db";
import { parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { notFound } from "../finance-errors";
import { comparedFigures, comparedPeriod, compareListOf } from "../reports/comparison";
import type { TGlAccountDto } from "./general-ledger.schema";
import {
  PROFIT_AND_LOSS_FIGURES,
  type TBalanceSheet,
  type TBalanceSheetQuery,
  type TGeneralLedger,
  type TGeneralLedgerQuery,
  type TProfitAndLoss,
  type TProfitAndLossQuery,
  ZBalanceSheetQuery,
  ZGeneralLedgerQuery,
  ZProfitAndLossQuery,
} from "./ledger-reports.schema";

/*
 * The books' reports (docs/decisions/0101-books-reports.md): each one aggregate over the journal
 * lines per leaf in SQL; the chart (a few hundred accounts at most) is read once and the groups'
 * subtotals are the sums of their leaves', added here in bigint.
 */

export type ChartRow = {
  id: string;
  code: string;
  name_en: string;
  name_ru: string;
  name_uz: string;
  type: TGlAccountDto["type"];
  parent_id: string | null;
};

export type ChartAccount = {
  accountId: string;
  code: string;
  nameEn: string;
  nameRu: string;
  nameUz: string;
  type: TGlAccountDto["type"];
  parentId: string | null;
  isGroup: boolean;
  depth: number;
};

/** A chart row as the reports name an account. */
export const accountRefOf = (row: ChartRow) => ({
  accountId: row.id,
  code: row.code,
  nameEn: row.name_en,
  nameRu: row.name_ru,
  nameUz: row.name_uz,
  type: row.type,
  parentId: row.parent_id,
});

/** The tenant's chart in tree order (each account followed by its sub-accounts, by code). */
export const loadChart = async (tx: Tx, tenantId: string): Promise<ChartAccount[]> => {
  const rows = await tx.$queryRaw<ChartRow[]>`
    SELECT id::text, code, name_en, name_ru, name_uz, type::text AS type, parent_id::text
      FROM gl_accounts WHERE tenant_id = ${tenantId}::uuid ORDER BY code`;
  const children = new Map<string | null, ChartRow[]>();
  const ids = new Set(rows.map((row) => row.id));
  for (const row of rows) {
    const parent = row.parent_id && ids.has(row.parent_id) ? row.parent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), row]);
  }
  const out: ChartAccount[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const row of children.get(parent) ?? []) {
      out.push({
        ...accountRefOf(row),
        isGroup: children.has(row.id),
        depth,
      });
      walk(row.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
};

/**
 * Every account of the chart with figures: a leaf its own (from `leaves`), a group the sum of its
 * leaves'; only accounts with a leaf in `leaves` are kept, in tree order.
 */
export const rollUp = <K extends string>(
  chart: ChartAccount[],
  leaves: Map<string, Record<K, bigint>>,
  keys: readonly K[],
): Array<ChartAccount & Record<K, bigint>> => {
  const byId = new Map(chart.map((account) => [account.accountId, account]));
  const sums = new Map<string, Record<K, bigint>>();
  for (const [id, figures] of leaves) {
    let current = byId.get(id);
    while (current) {
      const sum =
        sums.get(current.accountId) ??
        (Object.fromEntries(keys.map((key) => [key, 0n])) as Record<K, bigint>);
      for (const key of keys) sum[key] += figures[key];
      sums.set(current.accountId, sum);
      current = current.parentId ? byId.get(current.parentId) : undefined;
    }
  }
  return chart.flatMap((account) => {
    const figures = sums.get(account.accountId);
    return figures ? [{ ...account, ...figures }] : [];
  });
};

const baseCurrency = async (tx: Tx, tenantId: string) => {
  const [base] = await tx.$queryRaw<{ code: string | null }[]>`
    SELECT gl_base_currency(${tenantId}::uuid)::text AS code`;
  return base?.code ?? null;
};

type LedgerLineRow = {
  line_id: string;
  entry_id: string;
  date: string;
  account_id: string;
  code: string;
  currency: string;
  amount: string;
  base_amount: string;
  balance: string;
  source_kind: string;
  source_id: string;
  document_kind: TGeneralLedger["lines"][number]["document"]["kind"];
  document_id: string;
  description: string;
  counterparty_id: string | null;
  counterparty_name: string | null;
  money_account_id: string | null;
};

const str = (value: bigint) => value.toString();

export const createLedgerReports = ({ db }: { db: Db }) => ({
  /**
   * The general ledger of one account (a group: of its leaves): the balance before the period, each
   * line with the balance after it and the document it comes from, the turnover and the closing
   * balance — base currency. Lines are paged; the figures cover the whole period.
   */
  generalLedger: async (
    ctx: TenantContext,
    accountId: string,
    raw: TGeneralLedgerQuery,
  ): Promise<TGeneralLedger> => {
    requirePermission(ctx, "reports:read:all");
    const query = parseInput(ZGeneralLedgerQuery, raw);
    const { tenantId } = ctx;
    const { startDate, endDate, limit, offset } = query;
    return db.withTenant(tenantId, async (tx) => {
      const chart = await loadChart(tx, tenantId);
      const account = chart.find((each) => each.accountId === accountId);
      if (!account) throw notFound("finance.gl_account_not_found", "Account of the chart not found");
      // The account and everything under it (a leaf: itself).
      const ids = new Set([accountId]);
      for (const each of chart) if (each.parentId && ids.has(each.parentId)) ids.add(each.accountId);
      const idList = [...ids];
      const [figures] = await tx.$queryRaw<
        { opening: string; debit: string; credit: string; total: number }[]
      >`
        SELECT COALESCE(sum(base_amount) FILTER (WHERE date < ${startDate}::date), 0)::text AS opening,
               COALESCE(sum(base_amount) FILTER (WHERE date >= ${startDate}::date AND base_amount > 0), 0)::text AS debit,
               COALESCE(-sum(base_amount) FILTER (WHERE date >= ${startDate}::date AND base_amount < 0), 0)::text AS credit,
               count(*) FILTER (WHERE date >= ${startDate}::date)::int AS total
          FROM journal_lines
         WHERE tenant_id = ${tenantId}::uuid AND gl_account_id = ANY(${idList}::uuid[]) AND date <= ${endDate}::date`;
      const opening = BigInt(figures?.opening ?? "0");
      const rows = await tx.$queryRaw<LedgerLineRow[]>`
        WITH lines AS (
          SELECT l.id, l.entry_id, l.date, l.gl_account_id, l.currency_code, l.amount, l.base_amount,
                 l.counterparty_id, l.money_account_id, e.source_kind, e.source_id, e.memo,
                 ${opening}::bigint + sum(l.base_amount) OVER (ORDER BY l.date, e.created_at, l.entry_id, l.id) AS balance,
                 row_number() OVER (ORDER BY l.date, e.created_at, l.entry_id, l.id) AS n
            FROM journal_lines l
            JOIN journal_entries e ON e.tenant_id = l.tenant_id AND e.id = l.entry_id
           WHERE l.tenant_id = ${tenantId}::uuid AND l.gl_account_id = ANY(${idList}::uuid[])
             AND l.date BETWEEN ${startDate}::date AND ${endDate}::date
        )
        SELECT l.id::text AS line_id, l.entry_id::text, to_char(l.date, 'YYYY-MM-DD') AS date,
               l.gl_account_id::text AS account_id, a.code, l.currency_code::text AS currency,
               l.amount::text, l.base_amount::text, l.balance::text,
               l.source_kind, l.source_id::text,
               CASE
                 WHEN l.source_kind = 'transaction' THEN
                   CASE WHEN p.id IS NOT NULL THEN 'payment'
                        WHEN x.id IS NOT NULL THEN 'expense'
                        WHEN t.type::text IN ('transfer', 'exchange', 'opening_balance') THEN t.type::text
                        ELSE 'other' END
                 WHEN l.source_kind IN ('debt', 'settlement') THEN l.source_kind
                 ELSE 'other'
               END AS document_kind,
               COALESCE(p.id, x.id, ds.debt_id, l.source_id)::text AS document_id,
               COALESCE(NULLIF(t.comment, ''), NULLIF(d.description, ''), NULLIF(sd.description, ''), l.memo, '') AS description,
               l.counterparty_id::text, c.name AS counterparty_name, l.money_account_id::text
          FROM lines l
          JOIN gl_accounts a ON a.tenant_id = ${tenantId}::uuid AND a.id = l.gl_account_id
          LEFT JOIN transactions t ON l.source_kind = 'transaction' AND t.tenant_id = ${tenantId}::uuid AND t.id = l.source_id
          LEFT JOIN payments p ON p.tenant_id = ${tenantId}::uuid AND p.transaction_id = t.id
          LEFT JOIN expenses x ON x.tenant_id = ${tenantId}::uuid AND x.transaction_id = t.id
          LEFT JOIN debts d ON l.source_kind = 'debt' AND d.tenant_id = ${tenantId}::uuid AND d.id = l.source_id
          LEFT JOIN debt_settlements ds ON l.source_kind = 'settlement' AND ds.tenant_id = ${tenantId}::uuid AND ds.id = l.source_id
          LEFT JOIN debts sd ON sd.tenant_id = ${tenantId}::uuid AND sd.id = ds.debt_id
          LEFT JOIN counterparties c ON c.tenant_id = ${tenantId}::uuid AND c.id = l.counterparty_id
         WHERE l.n > ${offset} AND l.n <= ${offset + limit}
         ORDER BY l.n`;
      const debit = BigInt(figures?.debit ?? "0");
      const credit = BigInt(figures?.credit ?? "0");
      return {
        account,
        startDate,
        endDate,
        baseCurrency: await baseCurrency(tx, tenantId),
        opening: str(opening),
        debit: str(debit),
        credit: str(credit),
        closing: str(opening + debit - credit),
        lines: rows.map((row) => {
          const base = BigInt(row.base_amount);
          return {
            lineId: row.line_id,
            entryId: row.entry_id,
            date: row.date,
            accountId: row.account_id,
            code: row.code,
            currency: row.currency,
            amount: row.amount,
            debit: str(base > 0n ? base : 0n),
            credit: str(base < 0n ? -base : 0n),
            balance: row.balance,
            source: { kind: row.source_kind, id: row.source_id },
            document: { kind: row.document_kind, id: row.document_id },
            description: row.description,
            counterpartyId: row.counterparty_id,
            counterpartyName: row.counterparty_name,
            moneyAccountId: row.money_account_id,
          };
        }),
        total: figures?.total ?? 0,
        limit,
        offset,
      };
    });
  },

  /**
   * The balance sheet at the end of a day: assets (debit balances) against liabilities and equity
   * (credit balances), the income and expenses not yet closed as equity's own "retained earnings"
   * line; optionally the same at another day. One aggregate per leaf up to the later day.
   */
  balanceSheet: async (ctx: TenantContext, raw: TBalanceSheetQuery): Promise<TBalanceSheet> => {
    requirePermission(ctx, "reports:read:all");
    const query = parseInput(ZBalanceSheetQuery, raw);
    const { tenantId } = ctx;
    const { date } = query;
    const compareDate = query.compareDate ?? null;
    const last = compareDate && compareDate > date ? compareDate : date;
    return db.withTenant(tenantId, async (tx) => {
      const chart = await loadChart(tx, tenantId);
      const rows = await tx.$queryRaw<{ id: string; at: string; compared: string }[]>`
        SELECT gl_account_id::text AS id,
               COALESCE(sum(base_amount) FILTER (WHERE date <= ${date}::date), 0)::text AS at,
               COALESCE(sum(base_amount) FILTER (WHERE date <= ${compareDate ?? date}::date), 0)::text AS compared
          FROM journal_lines
         WHERE tenant_id = ${tenantId}::uuid AND date <= ${last}::date
         GROUP BY gl_account_id`;
      const typeOf = new Map(chart.map((account) => [account.accountId, account.type]));
      const side = (types: TGlAccountDto["type"][], sign: bigint) => {
        const leaves = new Map(
          rows
            .filter((row) => types.includes(typeOf.get(row.id) ?? "asset") && typeOf.has(row.id))
            .filter((row) => row.at !== "0" || (compareDate !== null && row.compared !== "0"))
            .map((row) => [row.id, { amount: sign * BigInt(row.at), compared: sign * BigInt(row.compared) }]),
        );
        const lines = rollUp(chart, leaves, ["amount", "compared"] as const);
        const total = [...leaves.values()].reduce((sum, leaf) => sum + leaf.amount, 0n);
        const comparedTotal = [...leaves.values()].reduce((sum, leaf) => sum + leaf.compared, 0n);
        return {
          lines: lines.map((line) => ({
            ...line,
            amount: str(line.amount),
            compared: compareDate ? str(line.compared) : null,
          })),
          total,
          comparedTotal,
        };
      };
      const assets = side(["asset"], 1n);
      const liabilities = side(["liability"], -1n);
      const equity = side(["equity"], -1n);
      const result = side(["income", "expense"], -1n);
      // Lines on an account missing from the chart count nowhere: the difference then names them.
      const equityTotal = equity.total + result.total;
      const equityCompared = equity.comparedTotal + result.comparedTotal;
      const difference = assets.total - liabilities.total - equityTotal;
      const comparedDifference = assets.comparedTotal - liabilities.comparedTotal - equityCompared;
      const out = (part: typeof assets, total: bigint, compared: bigint) => ({
        lines: part.lines,
        total: str(total),
        comparedTotal: compareDate ? str(compared) : null,
      });
      return {
        date,
        compareDate,
        baseCurrency: await baseCurrency(tx, tenantId),
        assets: out(assets, assets.total, assets.comparedTotal),
        liabilities: out(liabilities, liabilities.total, liabilities.comparedTotal),
        equity: out(equity, equityTotal, equityCompared),
        retainedEarnings: {
          amount: str(result.total),
          compared: compareDate ? str(result.comparedTotal) : null,
        },
        liabilitiesAndEquity: {
          amount: str(liabilities.total + equityTotal),
          compared: compareDate ? str(liabilities.comparedTotal + equityCompared) : null,
        },
        difference: str(difference),
        comparedDifference: compareDate ? str(comparedDifference) : null,
        balanced: difference === 0n && (compareDate === null || comparedDifference === 0n),
      };
    });
  },

  /**
   * Profit and loss on the ledger: income (credit − debit) and expense (debit − credit) accounts of
   * the period as a tree, the net result, and the compared periods of decision 0088 — one aggregate
   * with a FILTER per period.
   */
  profitAndLoss: async (ctx: TenantContext, raw: TProfitAndLossQuery): Promise<TProfitAndLoss> => {
    requirePermission(ctx, "reports:read:all");
    const query = parseInput(ZProfitAndLossQuery, raw);
    const { tenantId } = ctx;
    const { startDate, endDate } = query;
    const comparedPeriods = compareListOf(query.compare).map((compare) => ({
      compare,
      ...comparedPeriod(compare, startDate, endDate),
    }));
    const periods = [{ startDate, endDate }, ...comparedPeriods];
    const first = periods.reduce(
      (min, period) => (period.startDate < min ? period.startDate : min),
      startDate,
    );
    const sums = Prisma.join(
      periods.map(
        (period, index) =>
          Prisma.sql`COALESCE(sum(l.base_amount) FILTER (WHERE l.date BETWEEN ${period.startDate}::date AND ${period.endDate}::date), 0)::text AS ${Prisma.raw(`p${index}`)}`,
      ),
      ", ",
    );
    return db.withTenant(tenantId, async (tx) => {
      const chart = await loadChart(tx, tenantId);
      const rows = await tx.$queryRaw<Array<{ id: string; type: string } & Record<string, string>>>`
        SELECT l.gl_account_id::text AS id, a.type::text AS type, ${sums}
          FROM journal_lines l
          JOIN gl_accounts a ON a.tenant_id = l.tenant_id AND a.id = l.gl_account_id
         WHERE l.tenant_id = ${tenantId}::uuid AND a.type IN ('income', 'expense')
           AND l.date BETWEEN ${first}::date AND ${endDate}::date
         GROUP BY l.gl_account_id, a.type`;
      const keys = periods.map((_, index) => `p${index}`);
      const part = (type: "income" | "expense") => {
        const sign = type === "income" ? -1n : 1n;
        const leaves = new Map(
          rows
            .filter((row) => row.type === type && keys.some((key) => row[key] !== "0"))
            .map((row) => [
              row.id,
              Object.fromEntries(keys.map((key) => [key, sign * BigInt(row[key] ?? "0")])),
            ]),
        );
        const lines = rollUp(chart, leaves, keys).map((line) => {
          const figures = line as unknown as Record<string, bigint>;
          const { accountId, code, nameEn, nameRu, nameUz, parentId, isGroup, depth } = line;
          return {
            accountId,
            code,
            nameEn,
            nameRu,
            nameUz,
            type: line.type,
            parentId,
            isGroup,
            depth,
            amount: str(figures.p0 ?? 0n),
            compared: keys.slice(1).map((key) => str(figures[key] ?? 0n)),
          };
        });
        const totals = keys.map((key) =>
          [...leaves.values()].reduce((sum, leaf) => sum + (leaf[key] ?? 0n), 0n),
        );
        return { lines, totals };
      };
      const income = part("income");
      const expenses = part("expense");
      const figuresOf = (index: number) => {
        const inc = income.totals[index] ?? 0n;
        const exp = expenses.totals[index] ?? 0n;
        return { income: str(inc), expenses: str(exp), netResult: str(inc - exp) };
      };
      const own = figuresOf(0);
      return {
        startDate,
        endDate,
        baseCurrency: await baseCurrency(tx, tenantId),
        comparedPeriods,
        incomeLines: income.lines,
        expenseLines: expenses.lines,
        ...own,
        compared: comparedPeriods.map((period, index) => ({
          compare: period.compare,
          ...comparedFigures(PROFIT_AND_LOSS_FIGURES, own, figuresOf(index + 1)),
        })),
      };
    });
  },
});
