import { type Db, Prisma } from "@hisob/db";
import { parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { notFound } from "../finance-errors";
import { queryRaw } from "./report-sql";
import { type TAgingQuery, type TAgingReport, ZAgingQuery } from "./reports.schema";

export const counterpartyNotFound = () =>
  notFound("finance.counterparty_not_found", "Counterparty not found");

type AgingRow = {
  kind: "row" | "total";
  debt_kind: "receivable" | "payable";
  counterparty_id: string | null;
  counterparty_name: string | null;
  currency: string;
  debts: number;
  not_due: string;
  days_1_30: string;
  days_31_60: string;
  days_61_90: string;
  over_90: string;
  total: string;
};

/**
 * What was left due on each debt at the end of `asOf`, bucketed by days past due, summed per kind,
 * counterparty and currency, with per-kind-and-currency totals (GROUPING SETS), in one statement:
 *   - a debt counts from the day it was recorded (its creation, UTC) — a debt recorded later did not
 *     exist yet;
 *   - what is left = its amount − its settlements dated on or before `asOf` (one index range per debt,
 *     `debt_settlements (tenant_id, debt_id, date)`); a reversed settlement is deleted with its
 *     payment or expense, so it no longer counts;
 *   - a debt written off on or before `asOf` owes nothing any more; one written off later still
 *     counts with what was left at `asOf`;
 *   - days past due = `asOf` − due date: a debt due on `asOf` itself (0 days) or later, or without a
 *     due date, is not yet due; 1–30, 31–60, 61–90 and over 90 days past due follow.
 */
const agingSql = (tenantId: string, asOf: string, counterpartyId: string | undefined) => Prisma.sql`
  WITH open_debts AS (
    SELECT d.kind, d.counterparty_id, d.currency_code AS currency, ${asOf}::date - d.due_date AS late,
           d.amount - COALESCE(s.settled, 0) AS due
      FROM debts d
      LEFT JOIN LATERAL (
        SELECT sum(s.amount) AS settled FROM debt_settlements s
         WHERE s.tenant_id = d.tenant_id AND s.debt_id = d.id AND s.date <= ${asOf}::date
      ) s ON true
     WHERE d.tenant_id = ${tenantId}::uuid
       AND (d.created_at AT TIME ZONE 'UTC')::date <= ${asOf}::date
       AND NOT (d.status = 'written_off' AND (d.written_off_at AT TIME ZONE 'UTC')::date <= ${asOf}::date)
       ${counterpartyId ? Prisma.sql`AND d.counterparty_id = ${counterpartyId}::uuid` : Prisma.empty}
  ), grouped AS (
    SELECT kind, counterparty_id, currency, GROUPING(counterparty_id) AS is_total, count(*)::int AS debts,
           COALESCE(sum(due) FILTER (WHERE late IS NULL OR late <= 0), 0) AS not_due,
           COALESCE(sum(due) FILTER (WHERE late BETWEEN 1 AND 30), 0) AS days_1_30,
           COALESCE(sum(due) FILTER (WHERE late BETWEEN 31 AND 60), 0) AS days_31_60,
           COALESCE(sum(due) FILTER (WHERE late BETWEEN 61 AND 90), 0) AS days_61_90,
           COALESCE(sum(due) FILTER (WHERE late > 90), 0) AS over_90,
           sum(due) AS total
      FROM open_debts
     WHERE due > 0
     GROUP BY GROUPING SETS ((kind, currency, counterparty_id), (kind, currency))
  )
  SELECT CASE WHEN g.is_total = 1 THEN 'total' ELSE 'row' END AS kind, g.kind::text AS debt_kind,
         g.counterparty_id::text AS counterparty_id, c.name AS counterparty_name, g.currency, g.debts,
         g.not_due::text AS not_due, g.days_1_30::text AS days_1_30, g.days_31_60::text AS days_31_60,
         g.days_61_90::text AS days_61_90, g.over_90::text AS over_90, g.total::text AS total
    FROM grouped g
    LEFT JOIN counterparties c ON c.tenant_id = ${tenantId}::uuid AND c.id = g.counterparty_id
   ORDER BY g.kind, g.currency, g.is_total, c.name, g.counterparty_id`;

const buckets = (row: AgingRow) => ({
  debts: row.debts,
  notDue: row.not_due,
  days1To30: row.days_1_30,
  days31To60: row.days_31_60,
  days61To90: row.days_61_90,
  over90: row.over_90,
  total: row.total,
});

/** Receivables and payables aging at the end of a day, per counterparty and currency. */
export const agingReport =
  ({ db }: { db: Db }) =>
  async (ctx: TenantContext, raw: TAgingQuery): Promise<TAgingReport> => {
    requirePermission(ctx, "reports:read:all");
    const query = parseInput(ZAgingQuery, raw);
    const rows = await db.rawTx.withTenant(
      ctx.tenantId,
      async (tx) => {
        if (query.counterpartyId) {
          const found = await tx.query<{ id: string }>(
            "SELECT id FROM counterparties WHERE tenant_id = $1::uuid AND id = $2::uuid",
            [ctx.tenantId, query.counterpartyId],
          );
          if (found.length === 0) throw counterpartyNotFound();
        }
        return queryRaw<AgingRow>(tx, agingSql(ctx.tenantId, query.asOf, query.counterpartyId));
      },
      { readOnly: true },
    );
    return {
      asOf: query.asOf,
      rows: rows
        .filter((row) => row.kind === "row")
        .map((row) => ({
          kind: row.debt_kind,
          counterpartyId: row.counterparty_id ?? "",
          counterpartyName: row.counterparty_name ?? "",
          currency: row.currency,
          ...buckets(row),
        })),
      totals: rows
        .filter((row) => row.kind === "total")
        .map((row) => ({ kind: row.debt_kind, currency: row.currency, ...buckets(row) })),
    };
  };
