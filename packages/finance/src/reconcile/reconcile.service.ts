import type { Db, Tx } from "@hisob/db";
import { type Clock, requirePermission, systemClock, type TenantContext } from "@hisob/kernel";
import type { TReconcileReport } from "./reconcile.schema";

type DriftRow = { id: string; name: string; currency_code: string; stored: string; computed: string };
type MismatchRow = { kind: "payment" | "expense"; id: string };
type DebtRow = { debt_id: string; stored: string; computed: string };

/**
 * Every balance recomputed from the ledger in one aggregate per direction, documents against their
 * entries, debts against their settlements; mismatches only are returned.
 */
const reconcileIn = async (tx: Tx, tenantId: string, now: Date): Promise<TReconcileReport> => {
  const drift = await tx.$queryRaw<DriftRow[]>`
    SELECT a.id::text, a.name, a.currency_code, a.balance::text AS stored,
           (COALESCE(i.total, 0) - COALESCE(o.total, 0))::text AS computed
      FROM money_accounts a
      LEFT JOIN (SELECT destination_account_id AS id, sum(COALESCE(destination_amount, amount)) AS total
                   FROM transactions
                  WHERE tenant_id = ${tenantId}::uuid AND destination_account_id IS NOT NULL
                  GROUP BY destination_account_id) i ON i.id = a.id
      LEFT JOIN (SELECT origin_account_id AS id, sum(amount) AS total
                   FROM transactions
                  WHERE tenant_id = ${tenantId}::uuid AND origin_account_id IS NOT NULL
                  GROUP BY origin_account_id) o ON o.id = a.id
     WHERE a.tenant_id = ${tenantId}::uuid
       AND a.balance <> COALESCE(i.total, 0) - COALESCE(o.total, 0)
     ORDER BY a.name, a.id`;
  const mismatched = await tx.$queryRaw<MismatchRow[]>`
    SELECT 'payment' AS kind, p.id::text FROM payments p
      JOIN transactions t ON t.tenant_id = p.tenant_id AND t.id = p.transaction_id
     WHERE p.tenant_id = ${tenantId}::uuid
       AND (t.type <> 'income' OR t.amount <> p.amount OR t.destination_account_id <> p.account_id OR t.date <> p.date)
    UNION ALL
    SELECT 'expense', e.id::text FROM expenses e
      JOIN transactions t ON t.tenant_id = e.tenant_id AND t.id = e.transaction_id
     WHERE e.tenant_id = ${tenantId}::uuid
       AND (t.type <> 'expense' OR t.amount <> e.amount OR t.origin_account_id <> e.account_id OR t.date <> e.date)`;
  const debts = await tx.$queryRaw<DebtRow[]>`
    SELECT d.id::text AS debt_id, d.outstanding::text AS stored,
           (d.amount - COALESCE(s.settled, 0) - COALESCE(d.written_off_amount, 0))::text AS computed
      FROM debts d
      LEFT JOIN (SELECT ds.debt_id, sum(ds.amount) AS settled,
                        bool_or(COALESCE(p.amount, e.amount) IS DISTINCT FROM ds.amount) AS document_differs
                   FROM debt_settlements ds
                   LEFT JOIN payments p ON p.tenant_id = ds.tenant_id AND p.id = ds.payment_id
                   LEFT JOIN expenses e ON e.tenant_id = ds.tenant_id AND e.id = ds.expense_id
                  WHERE ds.tenant_id = ${tenantId}::uuid
                  GROUP BY ds.debt_id) s ON s.debt_id = d.id
     WHERE d.tenant_id = ${tenantId}::uuid
       AND (d.outstanding <> d.amount - COALESCE(s.settled, 0) - COALESCE(d.written_off_amount, 0)
            OR COALESCE(s.document_differs, false))
     ORDER BY d.id`;
  const [ledgerTotal] = await tx.$queryRaw<{ total: string }[]>`
    SELECT COALESCE(sum(base_amount), 0)::text AS total FROM journal_lines WHERE tenant_id = ${tenantId}::uuid`;
  const unbalanced = await tx.$queryRaw<{ entry_id: string; difference: string }[]>`
    SELECT entry_id::text, sum(base_amount)::text AS difference FROM journal_lines
     WHERE tenant_id = ${tenantId}::uuid
     GROUP BY entry_id HAVING sum(base_amount) <> 0
     ORDER BY entry_id LIMIT 100`;
  const glDrift = await tx.$queryRaw<DriftRow[]>`
    SELECT a.id::text, a.name, a.currency_code, a.balance::text AS stored, COALESCE(l.total, 0)::text AS computed
      FROM money_accounts a
      LEFT JOIN (SELECT money_account_id, sum(amount) AS total FROM journal_lines
                  WHERE tenant_id = ${tenantId}::uuid AND money_account_id IS NOT NULL
                  GROUP BY money_account_id) l ON l.money_account_id = a.id
     WHERE a.tenant_id = ${tenantId}::uuid AND a.balance <> COALESCE(l.total, 0)
     ORDER BY a.name, a.id`;
  const byType = await tx.$queryRaw<{ type: string; total: string }[]>`
    SELECT a.type::text AS type, sum(l.base_amount)::text AS total
      FROM journal_lines l
      JOIN gl_accounts a ON a.tenant_id = l.tenant_id AND a.id = l.gl_account_id
     WHERE l.tenant_id = ${tenantId}::uuid
     GROUP BY a.type`;
  const typeTotal = (...types: string[]) =>
    byType.filter((row) => types.includes(row.type)).reduce((sum, row) => sum + BigInt(row.total), 0n);
  const assets = typeTotal("asset");
  const liabilities = -typeTotal("liability");
  const equity = -typeTotal("equity");
  const retainedEarnings = -typeTotal("income", "expense");
  const balanceSheet = {
    assets: assets.toString(),
    liabilities: liabilities.toString(),
    equity: equity.toString(),
    retainedEarnings: retainedEarnings.toString(),
    difference: (assets - liabilities - equity - retainedEarnings).toString(),
  };
  const ledger = {
    debitsMinusCredits: ledgerTotal?.total ?? "0",
    unbalancedEntries: unbalanced.map((row) => ({ entryId: row.entry_id, difference: row.difference })),
    accountDifferences: glDrift.map((row) => ({
      accountId: row.id,
      name: row.name,
      currency: row.currency_code,
      cash: row.stored,
      ledger: row.computed,
    })),
    balanceSheet,
  };
  const ledgerOk =
    ledger.debitsMinusCredits === "0" &&
    unbalanced.length === 0 &&
    glDrift.length === 0 &&
    balanceSheet.difference === "0";
  const accountsChecked = await tx.moneyAccount.count({ where: { tenantId } });
  return {
    checkedAt: now.toISOString(),
    accountsChecked,
    drift: drift.map((row) => ({
      accountId: row.id,
      name: row.name,
      currency: row.currency_code,
      stored: row.stored,
      computed: row.computed,
    })),
    mismatchedDocuments: mismatched.map((row) => ({ kind: row.kind, id: row.id })),
    mismatchedDebts: debts.map((row) => ({
      debtId: row.debt_id,
      stored: row.stored,
      computed: row.computed,
    })),
    ledger,
    ok: drift.length === 0 && mismatched.length === 0 && debts.length === 0 && ledgerOk,
  };
};

export const createReconcileService = (deps: { db: Db; clock?: Clock }) => {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;
  return {
    /** The caller's tenant (GET /finance/reconcile). */
    reconcile: async (ctx: TenantContext): Promise<TReconcileReport> => {
      requirePermission(ctx, "accounts:reconcile:all");
      return db.withTenant(ctx.tenantId, (tx) => reconcileIn(tx, ctx.tenantId, clock.now()));
    },

    /** Every tenant, each in its own tenant transaction (the operator's CLI: `finance:reconcile`). */
    reconcileAll: async (): Promise<
      Array<{ tenantId: string; tenantName: string; report: TReconcileReport }>
    > => {
      const tenants = await db.withPlatform((tx) =>
        tx.tenant.findMany({ select: { id: true, name: true }, orderBy: { createdAt: "asc" } }),
      );
      const results = [];
      for (const tenant of tenants) {
        const report = await db.withTenant(tenant.id, (tx) => reconcileIn(tx, tenant.id, clock.now()));
        results.push({ tenantId: tenant.id, tenantName: tenant.name, report });
      }
      return results;
    },
  };
};

export type ReconcileService = ReturnType<typeof createReconcileService>;
