import { type Db, Prisma, type RawTenantTx } from "@hisob/db";
import { parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import type { z } from "zod";
import { notFound } from "../finance-errors";
import { queryRaw } from "./report-sql";
import {
  type TAgingBucket,
  type TAgingDebts,
  type TAgingDebtsQuery,
  type TAgingQuery,
  type TAgingReport,
  ZAgingDebtsQuery,
  ZAgingQuery,
} from "./reports.schema";

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
 * What was left due on each debt at the end of `asOf` (one row per debt, `open_debts`), the one
 * definition the aging's figures and the debts behind a figure (`agingDebtsReport`) are both read
 * from, so a figure and its drill-down cannot disagree (decision 0106):
 *   - a debt counts from the day it was recorded (its creation, UTC) — a debt recorded later did not
 *     exist yet;
 *   - what is left = its amount − its settlements dated on or before `asOf` (one index range per debt,
 *     `debt_settlements (tenant_id, debt_id, date)`); a reversed settlement is deleted with its
 *     payment or expense, so it no longer counts;
 *   - a debt written off on or before `asOf` owes nothing any more; one written off later still
 *     counts with what was left at `asOf`;
 *   - days past due = `asOf` − due date: a debt due on `asOf` itself (0 days) or later, or without a
 *     due date, is not yet due; 1–30, 31–60, 61–90 and over 90 days past due follow (`BUCKET_OF`).
 */
const openDebtsSql = (tenantId: string, asOf: string, counterpartyId: string | undefined) => Prisma.sql`
  open_debts AS (
    SELECT d.id, d.kind, d.counterparty_id, d.currency_code AS currency, d.due_date, d.amount, d.description,
           ${asOf}::date - d.due_date AS late, d.amount - COALESCE(s.settled, 0) AS due
      FROM debts d
      LEFT JOIN LATERAL (
        SELECT sum(s.amount) AS settled FROM debt_settlements s
         WHERE s.tenant_id = d.tenant_id AND s.debt_id = d.id AND s.date <= ${asOf}::date
      ) s ON true
     WHERE d.tenant_id = ${tenantId}::uuid
       AND (d.created_at AT TIME ZONE 'UTC')::date <= ${asOf}::date
       AND NOT (d.status = 'written_off' AND (d.written_off_at AT TIME ZONE 'UTC')::date <= ${asOf}::date)
       ${counterpartyId ? Prisma.sql`AND d.counterparty_id = ${counterpartyId}::uuid` : Prisma.empty}
  )`;

/** Which debts of `open_debts` (by `late`, days past due) each bucket holds. */
const BUCKET_OF: Record<TAgingBucket, Prisma.Sql> = {
  notDue: Prisma.sql`(late IS NULL OR late <= 0)`,
  days1To30: Prisma.sql`late BETWEEN 1 AND 30`,
  days31To60: Prisma.sql`late BETWEEN 31 AND 60`,
  days61To90: Prisma.sql`late BETWEEN 61 AND 90`,
  over90: Prisma.sql`late > 90`,
};

/**
 * The debts with something left due at the end of `asOf`, summed per kind, counterparty and currency
 * in the five buckets, with per-kind-and-currency totals (GROUPING SETS), in one statement.
 */
const agingSql = (tenantId: string, asOf: string, counterpartyId: string | undefined) => Prisma.sql`
  WITH ${openDebtsSql(tenantId, asOf, counterpartyId)}, grouped AS (
    SELECT kind, counterparty_id, currency, GROUPING(counterparty_id) AS is_total, count(*)::int AS debts,
           COALESCE(sum(due) FILTER (WHERE ${BUCKET_OF.notDue}), 0) AS not_due,
           COALESCE(sum(due) FILTER (WHERE ${BUCKET_OF.days1To30}), 0) AS days_1_30,
           COALESCE(sum(due) FILTER (WHERE ${BUCKET_OF.days31To60}), 0) AS days_31_60,
           COALESCE(sum(due) FILTER (WHERE ${BUCKET_OF.days61To90}), 0) AS days_61_90,
           COALESCE(sum(due) FILTER (WHERE ${BUCKET_OF.over90}), 0) AS over_90,
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

type AgingDebtRow = {
  /** The whole selection's count and sum (one row with no debt when the page is past the end). */
  count: number;
  left_total: string;
  id: string | null;
  counterparty_id: string | null;
  counterparty_name: string | null;
  due_date: string | null;
  late: number | null;
  amount: string | null;
  due: string | null;
  description: string | null;
};

/**
 * One page of the debts one aging figure counts (a kind, a currency, a bucket or the total, one
 * counterparty or all), each with what was left of it at the end of `asOf`, and the count and sum of
 * them all (the sum is the figure), in one statement.
 */
const agingDebtsSql = (tenantId: string, query: z.output<typeof ZAgingDebtsQuery>) => Prisma.sql`
  WITH ${openDebtsSql(tenantId, query.asOf, query.counterpartyId)}, chosen AS (
    SELECT * FROM open_debts
     WHERE due > 0 AND kind = ${query.kind}::debt_kind AND currency = ${query.currency}
       ${query.bucket === "total" ? Prisma.empty : Prisma.sql`AND ${BUCKET_OF[query.bucket]}`}
  ), whole AS (
    SELECT count(*)::int AS count, COALESCE(sum(due), 0) AS left_total FROM chosen
  ), page AS (
    SELECT d.id, d.counterparty_id, c.name AS counterparty_name, d.due_date, d.late, d.amount, d.due,
           d.description
      FROM chosen d
      JOIN counterparties c ON c.tenant_id = ${tenantId}::uuid AND c.id = d.counterparty_id
     ORDER BY c.name, d.due_date NULLS LAST, d.id
     LIMIT ${query.limit} OFFSET ${query.offset}
  )
  SELECT w.count, w.left_total::text AS left_total, p.id::text AS id, p.counterparty_id::text AS counterparty_id,
         p.counterparty_name, p.due_date::text AS due_date, CASE WHEN p.late > 0 THEN p.late END AS late,
         p.amount::text AS amount, p.due::text AS due, p.description
    FROM whole w
    LEFT JOIN page p ON true
   ORDER BY p.counterparty_name, p.due_date NULLS LAST, p.id`;

/** Another tenant's or an unknown counterparty is NOT_FOUND, not an empty report. */
const assertCounterparty = async (tx: RawTenantTx, tenantId: string, counterpartyId: string | undefined) => {
  if (!counterpartyId) return;
  const found = await tx.query<{ id: string }>(
    "SELECT id FROM counterparties WHERE tenant_id = $1::uuid AND id = $2::uuid",
    [tenantId, counterpartyId],
  );
  if (found.length === 0) throw counterpartyNotFound();
};

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
        await assertCounterparty(tx, ctx.tenantId, query.counterpartyId);
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

/**
 * The debts behind one aging figure at the end of `asOf`, each with what was left of it then: the
 * figure's exact drill-down for any day, a past one included (decision 0106). Their sum (`left`) is
 * the figure.
 */
export const agingDebtsReport =
  ({ db }: { db: Db }) =>
  async (ctx: TenantContext, raw: TAgingDebtsQuery): Promise<TAgingDebts> => {
    requirePermission(ctx, "reports:read:all");
    const query = parseInput(ZAgingDebtsQuery, raw);
    const rows = await db.rawTx.withTenant(
      ctx.tenantId,
      async (tx) => {
        await assertCounterparty(tx, ctx.tenantId, query.counterpartyId);
        return queryRaw<AgingDebtRow>(tx, agingDebtsSql(ctx.tenantId, query));
      },
      { readOnly: true },
    );
    const whole = rows[0];
    return {
      asOf: query.asOf,
      kind: query.kind,
      currency: query.currency,
      bucket: query.bucket,
      total: whole?.count ?? 0,
      left: whole?.left_total ?? "0",
      limit: query.limit,
      offset: query.offset,
      items: rows.flatMap((row) =>
        row.id === null
          ? []
          : [
              {
                id: row.id,
                counterpartyId: row.counterparty_id ?? "",
                counterpartyName: row.counterparty_name ?? "",
                dueDate: row.due_date,
                daysPastDue: row.late,
                amount: row.amount ?? "0",
                left: row.due ?? "0",
                description: row.description ?? "",
              },
            ],
      ),
    };
  };
