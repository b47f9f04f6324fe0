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
type RowWithEmail = Row & { userEmail: string | null; names: Record<string, string> };

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The ids an entry mentions: its actor, its target and the id-valued fields of its changes. */
const mentionedIds = (row: Row): string[] => {
  const ids = [row.userId, row.entityId];
  for (const change of [row.before, row.after]) {
    if (change && typeof change === "object" && !Array.isArray(change))
      for (const value of Object.values(change)) if (typeof value === "string") ids.push(value);
  }
  return ids.filter((id): id is string => typeof id === "string" && UUID.test(id));
};

/**
 * The acting users' emails and the names of every id the page mentions (users, roles, groups, money
 * accounts): one query per kind per page. Another tenant's rows stay unknown (RLS).
 */
const withNames = async (tx: Tx, ctx: TenantContext, rows: Row[]): Promise<RowWithEmail[]> => {
  const ids = [...new Set(rows.flatMap(mentionedIds))];
  const where = { tenantId: ctx.tenantId, id: { in: ids } };
  const select = { id: true, name: true } as const;
  const [users, roles, groups, accounts] =
    ids.length === 0
      ? [[], [], [], []]
      : await Promise.all([
          tx.user.findMany({ where, select: { id: true, email: true } }),
          tx.role.findMany({ where, select }),
          tx.group.findMany({ where, select }),
          tx.moneyAccount.findMany({ where, select }),
        ]);
  const emails = new Map(users.map((user) => [user.id, user.email]));
  const known = new Map<string, string>([
    ...[...roles, ...groups, ...accounts].map((row): [string, string] => [row.id, row.name]),
    ...emails,
  ]);
  return rows.map((row) => ({
    ...row,
    userEmail: row.userId ? (emails.get(row.userId) ?? null) : null,
    names: Object.fromEntries(
      mentionedIds(row).flatMap((id) => (known.has(id) ? [[id, known.get(id) as string]] : [])),
    ),
  }));
};

/** Organizations' names for a platform administrator's page (after its tenant transaction: one at a time). */
const withOrganizationNames = async (db: Db, page: Page<TAuditEntryDto>): Promise<Page<TAuditEntryDto>> => {
  const ids = [
    ...new Set(
      page.items.flatMap((entry) => (entry.entityId && entry.entity === "tenant" ? [entry.entityId] : [])),
    ),
  ];
  if (ids.length === 0) return page;
  const tenants = await db.withPlatform((tx) =>
    tx.tenant.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }),
  );
  const names = new Map(tenants.map((tenant) => [tenant.id, tenant.name]));
  const items = page.items.map((entry) => {
    const name = entry.entityId ? names.get(entry.entityId) : undefined;
    return name && entry.entityId ? { ...entry, names: { ...entry.names, [entry.entityId]: name } } : entry;
  });
  return { ...page, items };
};

/**
 * The emails of platform administrators who acted in this organization (decision 0084): their users
 * are not the organization's, so its transaction cannot see them. Read in the platform tenant's own
 * transaction, afterwards, and only for the actors of this page that stayed unknown.
 */
const withPlatformActors = async (db: Db, page: Page<TAuditEntryDto>): Promise<Page<TAuditEntryDto>> => {
  const ids = [
    ...new Set(
      page.items.flatMap((entry) => (entry.userId && entry.userEmail === null ? [entry.userId] : [])),
    ),
  ];
  if (ids.length === 0) return page;
  const platform = await db.withPlatform((tx) =>
    tx.tenant.findFirst({ where: { isPlatform: true }, select: { id: true } }),
  );
  if (!platform) return page;
  const users = await db.withTenant(platform.id, (tx) =>
    tx.user.findMany({
      where: { tenantId: platform.id, id: { in: ids } },
      select: { id: true, email: true },
    }),
  );
  if (users.length === 0) return page;
  const emails = new Map(users.map((user) => [user.id, user.email]));
  const items = page.items.map((entry) => {
    const email = entry.userId ? emails.get(entry.userId) : undefined;
    return email && entry.userId
      ? { ...entry, userEmail: email, names: { ...entry.names, [entry.userId]: email } }
      : entry;
  });
  return { ...page, items };
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
    const page = await deps.db.withTenant(ctx.tenantId, async (tx) => {
      const [rows, total] = await Promise.all([
        tx.auditEntry.findMany({ where, orderBy, skip: query.offset, take: query.limit, select: SELECT }),
        tx.auditEntry.count({ where }),
      ]);
      const items = (await withNames(tx, ctx, rows)).map((row) => toDto(readable(ctx, row)));
      return { items, total, limit: query.limit, offset: query.offset };
    });
    const named = await withPlatformActors(deps.db, page);
    return ctx.isPlatformAdmin === true ? withOrganizationNames(deps.db, named) : named;
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
        (await withNames(tx, ctx, await tx.auditEntry.findMany({ ...args, select: SELECT, orderBy }))).map(
          (row) => readable(ctx, row),
        ),
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
