import { type Db, sqlParams } from "@hisob/db";
import { t } from "@hisob/i18n";
import { type Locale, likeLiteral, parseInput, requireScope, type TenantContext } from "@hisob/kernel";
import type { z } from "zod";
import { EXPORT_MAX_ROWS, keysetBatches } from "../exports/keyset";
import { type ExportColumn, prepareXlsx } from "../exports/xlsx-exporter";
import { type USER_SORT_FIELDS, ZExportUsersQuery } from "./users.schema";

/**
 * The users list as a spreadsheet: the same filters and sort as GET /users. `limit`/`offset` page it
 * like the list when given; without a limit every matching row is exported (up to EXPORT_MAX_ROWS).
 */

export { ZExportUsersQuery };

/** One exported user: roles and groups already joined into their names (sorted, ", "). */
type ExportRow = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  uiLanguage: string;
  isActive: boolean;
  roles: string;
  groups: string;
  createdAt: Date;
  updatedAt: Date;
};

const SORT_COLUMN: Record<(typeof USER_SORT_FIELDS)[number], string> = {
  email: "u.email",
  firstName: "u.first_name",
  lastName: "u.last_name",
  createdAt: "u.created_at",
  updatedAt: "u.updated_at",
};

/**
 * One batch of the export in SQL on the driver, rows as arrays: the ORM built a nested object per
 * user, role and group and ran three statements per batch, which made a 100,000-row export more than
 * twice as slow as its spreadsheet alone and its heap four times as big (bench/users.bench.ts).
 * The filters are the list's (`usersWhere`), written out: substring searches escaped as there.
 */
const exportBatch = (
  query: z.output<typeof ZExportUsersQuery>,
  tenantId: string,
  onlyUserId: string | undefined,
  last: ExportRow | undefined,
  take: number,
) => {
  const params = sqlParams();
  const where = [`u.tenant_id = ${params.add(tenantId)}::uuid`];
  if (query.email) where.push(`u.email ILIKE ${params.add(`%${likeLiteral(query.email)}%`)}`);
  if (query.name) {
    const name = params.add(`%${likeLiteral(query.name)}%`);
    where.push(`(u.first_name ILIKE ${name} OR u.last_name ILIKE ${name})`);
  }
  if (query.roleId)
    where.push(`EXISTS (SELECT 1 FROM user_roles ur WHERE ur.tenant_id = u.tenant_id AND ur.user_id = u.id
      AND ur.role_id = ${params.add(query.roleId)}::uuid)`);
  if (query.active !== undefined) where.push(`u.is_active = ${params.add(query.active)}`);
  if (onlyUserId) where.push(`u.id = ${params.add(onlyUserId)}::uuid`);
  const column = SORT_COLUMN[query.sortBy];
  const direction = query.order === "asc" ? "ASC" : "DESC";
  if (last) {
    const after = query.order === "asc" ? ">" : "<";
    where.push(
      `(${column}, u.id) ${after} (${params.add(last[query.sortBy])}, ${params.add(last.id)}::uuid)`,
    );
  }
  const sql = `SELECT u.id, u.email, u.first_name, u.last_name, u.ui_language, u.is_active,
      coalesce((SELECT string_agg(r.name, ', ' ORDER BY r.name COLLATE "C") FROM user_roles ur
        JOIN roles r ON r.tenant_id = ur.tenant_id AND r.id = ur.role_id
        WHERE ur.tenant_id = u.tenant_id AND ur.user_id = u.id), '') AS roles,
      coalesce((SELECT string_agg(g.name, ', ' ORDER BY g.name COLLATE "C") FROM group_users gu
        JOIN groups g ON g.tenant_id = gu.tenant_id AND g.id = gu.group_id
        WHERE gu.tenant_id = u.tenant_id AND gu.user_id = u.id), '') AS groups,
      u.created_at, u.updated_at
    FROM users u WHERE ${where.join(" AND ")}
    ORDER BY ${column} ${direction}, u.id ${direction}
    LIMIT ${params.add(take)}${last || !query.offset ? "" : ` OFFSET ${params.add(query.offset)}`}`;
  return { sql, values: params.values };
};

type ExportTuple = [string, string, string, string, string, boolean, string, string, Date, Date];
const toExportRow = (r: ExportTuple): ExportRow => ({
  id: r[0],
  email: r[1],
  firstName: r[2],
  lastName: r[3],
  uiLanguage: r[4],
  isActive: r[5],
  roles: r[6],
  groups: r[7],
  createdAt: r[8],
  updatedAt: r[9],
});

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
    value: (u) => u.roles,
  },
  {
    header: t(locale, "export.users.groups"),
    kind: "text",
    width: 30,
    value: (u) => u.groups,
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
    const onlyUserId = scope === "own" ? ctx.actor.userId : undefined;
    const rows = () =>
      keysetBatches<ExportRow>(async (last, take) => {
        const batch = exportBatch(query, ctx.tenantId, onlyUserId, last, take);
        const tuples = await deps.db.rawTx.withTenant(
          ctx.tenantId,
          (tx) => tx.query<ExportTuple>(batch.sql, batch.values, { rowMode: "array" }),
          { readOnly: true },
        );
        return tuples.map(toExportRow);
      }, query.limit ?? EXPORT_MAX_ROWS);

    return prepareXlsx({
      locale: ctx.locale,
      fileName: `users-${new Date().toISOString().slice(0, 10)}.xlsx`,
      sheetName: t(ctx.locale, "export.users.sheet"),
      columns: userExportColumns(ctx.locale),
      rows,
    });
  },
});
