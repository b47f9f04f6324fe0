import type { Db, Prisma, Tx } from "@hisob/db";
import { type Messages, t } from "@hisob/i18n";
import {
  AppError,
  maskAuditFields,
  type Page,
  parseInput,
  requirePermission,
  type TenantContext,
} from "@hisob/kernel";
import { z } from "zod";
import { afterInOrder, EXPORT_MAX_ROWS, listRows } from "../exports/keyset";
import { type ExportColumn, prepareXlsx } from "../exports/xlsx-exporter";
import {
  type TAuditEntryDto,
  type TAuditFilters,
  type TListAuditQuery,
  ZAuditFilters,
  ZListAuditQuery,
} from "./audit.schema";

/**
 * Reading the audit log (writing is `audit()` from @hisob/db, inside each change's transaction).
 * A tenant reads its own entries; the platform tenant also reads platform events (no tenant), which
 * row-level security allows only to it. There is no way to change or remove an entry.
 */

export const ZExportAuditQuery = ZAuditFilters.extend({
  limit: z.coerce.number().int().min(1).max(EXPORT_MAX_ROWS).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});

const SELECT = {
  id: true,
  tenantId: true,
  occurredAt: true,
  userId: true,
  ip: true,
  userAgent: true,
  requestId: true,
  entity: true,
  entityId: true,
  action: true,
  before: true,
  after: true,
} satisfies Prisma.AuditEntrySelect;
type Row = Prisma.AuditEntryGetPayload<{ select: typeof SELECT }>;
type RowWithEmail = Row & { userEmail: string | null };

const auditWhere = (ctx: TenantContext, query: TAuditFilters): Prisma.AuditEntryWhereInput => {
  if (query.platform === true && ctx.isPlatformAdmin !== true) {
    throw new AppError("FORBIDDEN", {
      reason: "audit.platform_only",
      message: "Only platform administrators read platform events",
    });
  }
  const owner =
    query.platform === true
      ? { tenantId: null }
      : query.platform === false || ctx.isPlatformAdmin !== true
        ? { tenantId: ctx.tenantId }
        : { OR: [{ tenantId: ctx.tenantId }, { tenantId: null }] };
  return {
    ...owner,
    ...(query.userId ? { userId: query.userId } : {}),
    ...(query.entity ? { entity: query.entity } : {}),
    ...(query.entityId ? { entityId: query.entityId } : {}),
    ...(query.action ? { action: query.action } : {}),
    ...(query.from || query.to
      ? {
          occurredAt: {
            ...(query.from ? { gte: new Date(query.from) } : {}),
            ...(query.to ? { lt: new Date(query.to) } : {}),
          },
        }
      : {}),
  };
};

/** The acting users' emails, one query per page (users of other tenants stay unknown: RLS). */
const withEmails = async (tx: Tx, tenantId: string, rows: Row[]): Promise<RowWithEmail[]> => {
  const ids = [...new Set(rows.map((row) => row.userId).filter((id): id is string => id !== null))];
  const users =
    ids.length === 0
      ? []
      : await tx.user.findMany({ where: { tenantId, id: { in: ids } }, select: { id: true, email: true } });
  const emails = new Map(users.map((user) => [user.id, user.email]));
  return rows.map((row) => ({ ...row, userEmail: row.userId ? (emails.get(row.userId) ?? null) : null }));
};

/** Protected fields (a salary) masked for a reader who may not see them (see protectAuditFields). */
const readable = (ctx: TenantContext, row: RowWithEmail): RowWithEmail => {
  const mask = (change: unknown) =>
    maskAuditFields(
      row.entity,
      change as Record<string, unknown> | null,
      ctx.actor.permissions,
    ) as Row["after"];
  return { ...row, before: mask(row.before), after: mask(row.after) };
};

const toDto = (row: RowWithEmail): TAuditEntryDto => ({
  ...row,
  occurredAt: row.occurredAt.toISOString(),
  before: (row.before as Record<string, unknown> | null) ?? null,
  after: (row.after as Record<string, unknown> | null) ?? null,
});

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

const exportColumns = (ctx: TenantContext): ExportColumn<RowWithEmail>[] => {
  const h = (key: keyof Messages["export"]["audit"]) => t(ctx.locale, `export.audit.${key}`);
  return [
    { header: h("occurredAt"), kind: "datetime", value: (r) => r.occurredAt },
    { header: h("user"), kind: "text", width: 30, value: (r) => r.userEmail },
    { header: h("userId"), kind: "text", width: 38, value: (r) => r.userId },
    { header: h("entity"), kind: "text", width: 18, value: (r) => r.entity },
    { header: h("entityId"), kind: "text", width: 38, value: (r) => r.entityId },
    { header: h("action"), kind: "text", width: 18, value: (r) => r.action },
    { header: h("before"), kind: "text", width: 50, value: (r) => json(r.before) },
    { header: h("after"), kind: "text", width: 50, value: (r) => json(r.after) },
    { header: h("ip"), kind: "text", width: 16, value: (r) => r.ip },
    { header: h("userAgent"), kind: "text", width: 40, value: (r) => r.userAgent },
    { header: h("requestId"), kind: "text", width: 24, value: (r) => r.requestId },
  ];
};

export const createAuditService = (deps: { db: Db }) => ({
  list: async (ctx: TenantContext, raw: TListAuditQuery): Promise<Page<TAuditEntryDto>> => {
    requirePermission(ctx, "audit:read:all");
    const query = parseInput(ZListAuditQuery, raw);
    const where = auditWhere(ctx, query);
    const orderBy = [{ occurredAt: query.order }, { id: query.order }];
    return deps.db.withTenant(ctx.tenantId, async (tx) => {
      const [rows, total] = await Promise.all([
        tx.auditEntry.findMany({ where, orderBy, skip: query.offset, take: query.limit, select: SELECT }),
        tx.auditEntry.count({ where }),
      ]);
      const items = (await withEmails(tx, ctx.tenantId, rows)).map((row) => toDto(readable(ctx, row)));
      return { items, total, limit: query.limit, offset: query.offset };
    });
  },

  /** The same query as .xlsx, checked before the first byte is written. */
  prepareExport: (ctx: TenantContext, raw: unknown) => {
    requirePermission(ctx, "audit:read:all");
    const query = parseInput(ZExportAuditQuery, raw);
    const where = auditWhere(ctx, query);
    const orderBy = [{ occurredAt: query.order }, { id: query.order }];
    const rows = listRows<RowWithEmail, Prisma.AuditEntryWhereInput>(deps.db, ctx.tenantId, {
      where,
      after: (last) => afterInOrder("occurredAt", last, query.order),
      find: async (tx, args) =>
        (
          await withEmails(
            tx,
            ctx.tenantId,
            await tx.auditEntry.findMany({ ...args, select: SELECT, orderBy }),
          )
        ).map((row) => readable(ctx, row)),
      limit: query.limit,
      offset: query.offset,
    });
    return prepareXlsx({
      locale: ctx.locale,
      fileName: `audit-${new Date().toISOString().slice(0, 10)}.xlsx`,
      sheetName: t(ctx.locale, "export.audit.sheet"),
      columns: exportColumns(ctx),
      rows,
    });
  },
});

export type AuditService = ReturnType<typeof createAuditService>;
