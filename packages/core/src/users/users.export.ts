import type { Db, Prisma } from "@hisob/db";
import { t } from "@hisob/i18n";
import { type Locale, parseInput, requireScope, type TenantContext } from "@hisob/kernel";
import { afterInOrder, listRows } from "../exports/keyset";
import { type ExportColumn, prepareXlsx } from "../exports/xlsx-exporter";
import { usersWhere } from "./users.repository";
import { ZExportUsersQuery } from "./users.schema";

/**
 * The users list as a spreadsheet: the same filters and sort as GET /users. `limit`/`offset` page it
 * like the list when given; without a limit every matching row is exported (up to EXPORT_MAX_ROWS).
 */

export { ZExportUsersQuery };

const EXPORT_SELECT = {
  id: true,
  email: true,
  firstName: true,
  lastName: true,
  uiLanguage: true,
  isActive: true,
  createdAt: true,
  updatedAt: true,
  roles: { select: { role: { select: { name: true } } } },
  groups: { select: { group: { select: { name: true } } } },
} satisfies Prisma.UserSelect;
type ExportRow = Prisma.UserGetPayload<{ select: typeof EXPORT_SELECT }>;

const names = (items: Array<{ name: string }>) =>
  items
    .map((item) => item.name)
    .sort()
    .join(", ");

export const userExportColumns = (locale: Locale): ExportColumn<ExportRow>[] => [
  { header: t(locale, "export.users.email"), kind: "text", width: 32, value: (u) => u.email },
  { header: t(locale, "export.users.firstName"), kind: "text", value: (u) => u.firstName },
  { header: t(locale, "export.users.lastName"), kind: "text", value: (u) => u.lastName },
  { header: t(locale, "export.users.language"), kind: "text", width: 10, value: (u) => u.uiLanguage },
  { header: t(locale, "export.users.active"), kind: "boolean", value: (u) => u.isActive },
  {
    header: t(locale, "export.users.roles"),
    kind: "text",
    width: 30,
    value: (u) => names(u.roles.map((r) => r.role)),
  },
  {
    header: t(locale, "export.users.groups"),
    kind: "text",
    width: 30,
    value: (u) => names(u.groups.map((g) => g.group)),
  },
  { header: t(locale, "export.users.createdAt"), kind: "datetime", value: (u) => u.createdAt },
  { header: t(locale, "export.users.updatedAt"), kind: "datetime", value: (u) => u.updatedAt },
];

export const createUsersExport = (deps: { db: Db }) => ({
  /**
   * Checks permission and input first (so errors still get a proper status), then returns the
   * file name and a writer the transport pipes into its response.
   */
  prepare: (ctx: TenantContext, raw: unknown) => {
    const scope = requireScope(ctx, "users", "read");
    const query = parseInput(ZExportUsersQuery, raw);
    const where = {
      ...usersWhere(ctx.tenantId, query),
      ...(scope === "own" ? { id: ctx.actor.userId } : {}),
    };
    const orderBy = [
      { [query.sortBy]: query.order },
      { id: query.order },
    ] as Prisma.UserOrderByWithRelationInput[];
    const rows = listRows<ExportRow, Prisma.UserWhereInput>(deps.db, ctx.tenantId, {
      where,
      after: (last) => afterInOrder(query.sortBy, last, query.order),
      find: (tx, args) => tx.user.findMany({ ...args, select: EXPORT_SELECT, orderBy }),
      limit: query.limit,
      offset: query.offset,
    });

    return prepareXlsx({
      locale: ctx.locale,
      fileName: `users-${new Date().toISOString().slice(0, 10)}.xlsx`,
      sheetName: t(ctx.locale, "export.users.sheet"),
      columns: userExportColumns(ctx.locale),
      rows,
    });
  },
});
