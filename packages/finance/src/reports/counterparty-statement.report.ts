import { type Db, Prisma } from "@hisob/db";
import { parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { counterpartyNotFound } from "./aging.report";
import { queryRaw } from "./report-sql";
import {
  type TCounterpartyStatement,
  type TCounterpartyStatementQuery,
  ZCounterpartyStatementQuery,
} from "./reports.schema";

type Entry = TCounterpartyStatement["entries"][number];

/** One row of the statement's one result set: the counterparty, a currency's summary, or an entry. */
type StatementRow = {
  kind: "counterparty" | "currency" | "entry";
  name: string | null;
  tin: string | null;
  currency: string | null;
  opening_receivable: string | null;
  opening_payable: string | null;
  closing_receivable: string | null;
  closing_payable: string | null;
  received: string | null;
  paid: string | null;
  date: string | null;
  type: Entry["type"] | null;
  id: string | null;
  debt_id: string | null;
  debt_kind: "receivable" | "payable" | null;
  account_id: string | null;
  amount: string | null;
  receivable_change: string | null;
  payable_change: string | null;
  description: string | null;
};

/**
 * Everything with one counterparty in [start, end], and what was owed each way before and after,
 * per currency, in one statement (one snapshot):
 *   - owed at the end of a day, per debt: its amount (once recorded — its creation day, UTC) minus
 *     its settlements dated up to the day (a reversed settlement is deleted, so it never counts)
 *     minus what was written off, once written off (written-off amount: what was left then);
 *   - entries: the payments from them (+, settlements of a receivable lower what they owe), the
 *     expenses to them (−, settlements of a payable lower what we owe), the debts recorded, the
 *     write-offs, and the transfers and exchanges made through them (no debt moves);
 *   - received / paid: the period's payments and expenses, settlements included.
 * The opening balance plus the entries' changes is the closing balance for every debt whose
 * settlements are dated on or after the day it was recorded.
 */
const statementSql = (tenantId: string, counterpartyId: string, start: string, end: string) => Prisma.sql`
  WITH debt_days AS (
    SELECT d.id, d.kind, d.currency_code AS currency, d.amount, d.description,
           (d.created_at AT TIME ZONE 'UTC')::date AS recorded_on,
           (d.written_off_at AT TIME ZONE 'UTC')::date AS written_off_on, d.written_off_amount, d.write_off_reason,
           COALESCE(s.before_start, 0) AS settled_before, COALESCE(s.to_end, 0) AS settled_to_end
      FROM debts d
      LEFT JOIN LATERAL (
        SELECT sum(s.amount) FILTER (WHERE s.date < ${start}::date) AS before_start,
               sum(s.amount) FILTER (WHERE s.date <= ${end}::date) AS to_end
          FROM debt_settlements s
         WHERE s.tenant_id = d.tenant_id AND s.debt_id = d.id
      ) s ON true
     WHERE d.tenant_id = ${tenantId}::uuid AND d.counterparty_id = ${counterpartyId}::uuid
  ), owed AS (
    SELECT kind, currency,
           CASE WHEN recorded_on < ${start}::date THEN amount - settled_before
                  - CASE WHEN written_off_on < ${start}::date THEN written_off_amount ELSE 0 END
                ELSE 0 END AS opening,
           CASE WHEN recorded_on <= ${end}::date THEN amount - settled_to_end
                  - CASE WHEN written_off_on <= ${end}::date THEN written_off_amount ELSE 0 END
                ELSE 0 END AS closing
      FROM debt_days
  ), entries AS (
    SELECT p.date, CASE WHEN s.id IS NULL THEN 'payment' ELSE 'settlement' END AS type, p.id, s.debt_id,
           CASE WHEN s.id IS NULL THEN NULL ELSE 'receivable' END AS debt_kind, p.account_id,
           a.currency_code AS currency, p.amount, -COALESCE(s.amount, 0) AS receivable_change,
           0::bigint AS payable_change, p.comment AS description, 1 AS ord
      FROM payments p
      JOIN money_accounts a ON a.tenant_id = p.tenant_id AND a.id = p.account_id
      LEFT JOIN debt_settlements s ON s.tenant_id = p.tenant_id AND s.payment_id = p.id
     WHERE p.tenant_id = ${tenantId}::uuid AND p.counterparty_id = ${counterpartyId}::uuid
       AND p.date BETWEEN ${start}::date AND ${end}::date
    UNION ALL
    SELECT e.date, CASE WHEN s.id IS NULL THEN 'expense' ELSE 'settlement' END, e.id, s.debt_id,
           CASE WHEN s.id IS NULL THEN NULL ELSE 'payable' END, e.account_id, a.currency_code, -e.amount,
           0, -COALESCE(s.amount, 0), e.comment, 1
      FROM expenses e
      JOIN money_accounts a ON a.tenant_id = e.tenant_id AND a.id = e.account_id
      LEFT JOIN debt_settlements s ON s.tenant_id = e.tenant_id AND s.expense_id = e.id
     WHERE e.tenant_id = ${tenantId}::uuid AND e.counterparty_id = ${counterpartyId}::uuid
       AND e.date BETWEEN ${start}::date AND ${end}::date
    UNION ALL
    SELECT recorded_on, 'debt', id, id, kind::text, NULL, currency, 0,
           CASE WHEN kind = 'receivable' THEN amount ELSE 0 END,
           CASE WHEN kind = 'payable' THEN amount ELSE 0 END, description, 0
      FROM debt_days
     WHERE recorded_on BETWEEN ${start}::date AND ${end}::date
    UNION ALL
    SELECT written_off_on, 'writeOff', id, id, kind::text, NULL, currency, 0,
           CASE WHEN kind = 'receivable' THEN -written_off_amount ELSE 0 END,
           CASE WHEN kind = 'payable' THEN -written_off_amount ELSE 0 END, COALESCE(write_off_reason, ''), 2
      FROM debt_days
     WHERE written_off_on BETWEEN ${start}::date AND ${end}::date
    UNION ALL
    SELECT t.date, t.type::text, t.id, NULL, NULL, t.origin_account_id, a.currency_code, t.amount, 0, 0,
           t.comment, 1
      FROM transactions t
      JOIN money_accounts a ON a.tenant_id = t.tenant_id AND a.id = t.origin_account_id
     WHERE t.tenant_id = ${tenantId}::uuid AND t.counterparty_id = ${counterpartyId}::uuid
       AND t.type IN ('transfer', 'exchange') AND t.date BETWEEN ${start}::date AND ${end}::date
  ), balances AS (
    SELECT currency,
           COALESCE(sum(opening) FILTER (WHERE kind = 'receivable'), 0) AS opening_receivable,
           COALESCE(sum(opening) FILTER (WHERE kind = 'payable'), 0) AS opening_payable,
           COALESCE(sum(closing) FILTER (WHERE kind = 'receivable'), 0) AS closing_receivable,
           COALESCE(sum(closing) FILTER (WHERE kind = 'payable'), 0) AS closing_payable
      FROM owed
     GROUP BY currency
  ), moved AS (
    SELECT currency,
           COALESCE(sum(amount) FILTER (WHERE type = 'payment' OR (type = 'settlement' AND amount > 0)), 0) AS received,
           COALESCE(-sum(amount) FILTER (WHERE type = 'expense' OR (type = 'settlement' AND amount < 0)), 0) AS paid
      FROM entries
     GROUP BY currency
  ), currencies AS (
    SELECT COALESCE(b.currency, m.currency) AS currency,
           COALESCE(b.opening_receivable, 0) AS opening_receivable, COALESCE(b.opening_payable, 0) AS opening_payable,
           COALESCE(b.closing_receivable, 0) AS closing_receivable, COALESCE(b.closing_payable, 0) AS closing_payable,
           COALESCE(m.received, 0) AS received, COALESCE(m.paid, 0) AS paid
      FROM balances b
      FULL JOIN moved m ON m.currency = b.currency
  )
  SELECT 'counterparty' AS kind, c.name, c.tin, NULL AS currency, NULL AS opening_receivable,
         NULL AS opening_payable, NULL AS closing_receivable, NULL AS closing_payable, NULL AS received,
         NULL AS paid, NULL AS date, NULL AS type, NULL AS id, NULL AS debt_id, NULL AS debt_kind,
         NULL AS account_id, NULL AS amount, NULL AS receivable_change, NULL AS payable_change,
         NULL AS description, 0 AS section, NULL::date AS sort_date, 0 AS ord, NULL AS sort_id
    FROM counterparties c
   WHERE c.tenant_id = ${tenantId}::uuid AND c.id = ${counterpartyId}::uuid
  UNION ALL
  SELECT 'currency', NULL, NULL, currency, opening_receivable::text, opening_payable::text,
         closing_receivable::text, closing_payable::text, received::text, paid::text,
         NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1, NULL, 0, currency
    FROM currencies
  UNION ALL
  SELECT 'entry', NULL, NULL, currency, NULL, NULL, NULL, NULL, NULL, NULL, date::text, type, id::text,
         debt_id::text, debt_kind, account_id::text, amount::text, receivable_change::text,
         payable_change::text, description, 2, date, ord, id::text
    FROM entries
   ORDER BY section, sort_date, ord, sort_id`;

/** A counterparty's statement: opening and closing balances owed each way per currency, and every entry. */
export const counterpartyStatementReport =
  ({ db }: { db: Db }) =>
  async (
    ctx: TenantContext,
    counterpartyId: string,
    raw: TCounterpartyStatementQuery,
  ): Promise<TCounterpartyStatement> => {
    requirePermission(ctx, "reports:read:all");
    const query = parseInput(ZCounterpartyStatementQuery, raw);
    const rows = await db.rawTx.withTenant(
      ctx.tenantId,
      (tx) =>
        queryRaw<StatementRow>(
          tx,
          statementSql(ctx.tenantId, counterpartyId, query.startDate, query.endDate),
          {
            commit: true,
          },
        ),
      { readOnly: true },
    );
    const [head] = rows;
    // No counterparty row: another tenant's or an unknown counterparty (row-level security hides it).
    if (head?.kind !== "counterparty") throw counterpartyNotFound();
    return {
      counterparty: { id: counterpartyId, name: head.name ?? "", tin: head.tin ?? "" },
      startDate: query.startDate,
      endDate: query.endDate,
      currencies: rows
        .filter((row) => row.kind === "currency")
        .map((row) => ({
          currency: row.currency ?? "",
          openingReceivable: row.opening_receivable ?? "0",
          openingPayable: row.opening_payable ?? "0",
          closingReceivable: row.closing_receivable ?? "0",
          closingPayable: row.closing_payable ?? "0",
          received: row.received ?? "0",
          paid: row.paid ?? "0",
        })),
      entries: rows
        .filter((row) => row.kind === "entry")
        .map((row) => ({
          date: row.date ?? "",
          type: row.type ?? "payment",
          id: row.id ?? "",
          debtId: row.debt_id,
          debtKind: row.debt_kind,
          accountId: row.account_id,
          currency: row.currency ?? "",
          amount: row.amount ?? "0",
          receivableChange: row.receivable_change ?? "0",
          payableChange: row.payable_change ?? "0",
          description: row.description ?? "",
        })),
    };
  };
