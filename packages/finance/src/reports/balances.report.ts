import { type Db, Prisma } from "@hisob/db";
import { parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { accountNotFound } from "../accounts/accounts.service";
import { accountIdsOf, queryRaw } from "./report-sql";
import { type TBalancesQuery, type TBalancesReport, ZBalancesQuery } from "./reports.schema";

type BalanceRow = {
  kind: "account" | "total";
  account_id: string | null;
  name: string | null;
  number: string | null;
  currency: string;
  balance: string;
  accounts: number;
};

/**
 * Every account's balance at the end of `date`, in one statement: the stored balance minus what was
 * posted after the day, read from the balance checkpoints (`account_day_totals`: one row per account
 * and day with an entry, `change` the entries and `opening` the opening balances) — an index range
 * over the days after `date`, never the entries. An account with no entry and no opening balance on
 * or before `date` (one probe of the same index) is absent: it held nothing yet. Per-currency totals
 * come from the same rows (GROUPING SETS).
 */
const balancesSql = (tenantId: string, date: string, ids: string[] | null) => Prisma.sql`
  WITH balances AS (
    SELECT a.id, a.name, a.number, a.currency_code,
           a.balance - COALESCE((SELECT sum(d.change + d.opening) FROM account_day_totals d
                                  WHERE d.tenant_id = a.tenant_id AND d.account_id = a.id
                                    AND d.date > ${date}::date), 0) AS balance
      FROM money_accounts a
     WHERE a.tenant_id = ${tenantId}::uuid
       ${ids ? Prisma.sql`AND a.id = ANY(${ids}::uuid[])` : Prisma.empty}
       AND EXISTS (SELECT 1 FROM account_day_totals d
                    WHERE d.tenant_id = a.tenant_id AND d.account_id = a.id AND d.date <= ${date}::date
                      AND (d.entries > 0 OR d.opening <> 0))
  )
  SELECT CASE WHEN GROUPING(id) = 1 THEN 'total' ELSE 'account' END AS kind, id::text AS account_id,
         min(name) AS name, min(number) AS number, currency_code AS currency, sum(balance)::text AS balance,
         count(*)::int AS accounts
    FROM balances
   GROUP BY GROUPING SETS ((currency_code, id), (currency_code))
   ORDER BY currency_code, GROUPING(id), min(name), id`;

/** Balances at the end of a day, per account and per currency. */
export const balancesReport =
  ({ db }: { db: Db }) =>
  async (ctx: TenantContext, raw: TBalancesQuery): Promise<TBalancesReport> => {
    requirePermission(ctx, "reports:read:all");
    const query = parseInput(ZBalancesQuery, raw);
    const ids = accountIdsOf(query.accountId);
    const rows = await db.rawTx.withTenant(
      ctx.tenantId,
      async (tx) => {
        if (ids) {
          // Another tenant's (or an unknown) account is NOT_FOUND, as in the other reports.
          const [found] = await tx.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM money_accounts WHERE tenant_id = $1::uuid AND id = ANY($2::uuid[])",
            [ctx.tenantId, ids],
          );
          if (found?.n !== ids.length) throw accountNotFound();
        }
        return queryRaw<BalanceRow>(tx, balancesSql(ctx.tenantId, query.date, ids));
      },
      { readOnly: true },
    );
    return {
      date: query.date,
      accounts: rows
        .filter((row) => row.kind === "account")
        .map((row) => ({
          accountId: row.account_id ?? "",
          name: row.name ?? "",
          number: row.number ?? "",
          currency: row.currency,
          balance: row.balance,
        })),
      totals: rows
        .filter((row) => row.kind === "total")
        .map((row) => ({ currency: row.currency, balance: row.balance, accounts: row.accounts })),
    };
  };
