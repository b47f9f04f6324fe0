import type { Prisma, Tx } from "@hisob/db";
import { containsText, sortPermissions } from "@hisob/kernel";
import type { z } from "zod";
import type { TRoleDto, ZListRolesQuery } from "./roles.schema";

const roleSelect = (tenantId: string) =>
  ({
    id: true,
    name: true,
    description: true,
    createdAt: true,
    updatedAt: true,
    // The tenant in nested reads too: wall 1 does not rely on the parent row.
    permissions: { where: { tenantId }, select: { permission: { select: { name: true } } } },
    _count: { select: { users: { where: { tenantId } } } },
  }) satisfies Prisma.RoleSelect;

type RoleRow = Prisma.RoleGetPayload<{ select: ReturnType<typeof roleSelect> }>;

const toDto = (row: RoleRow): TRoleDto => ({
  id: row.id,
  name: row.name,
  description: row.description,
  permissions: sortPermissions(row.permissions.map((entry) => entry.permission.name)),
  userCount: row._count.users,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Roles of one tenant and their permissions; every query carries the tenant (wall 1; RLS is wall 2). */
export const rolesRepository = {
  list: async (tx: Tx, tenantId: string, query: z.output<typeof ZListRolesQuery>) => {
    const where: Prisma.RoleWhereInput = {
      tenantId,
      ...(query.name ? { name: containsText(query.name) } : {}),
    };
    const [rows, total] = await Promise.all([
      tx.role.findMany({
        where,
        select: roleSelect(tenantId),
        // The id breaks ties so pages never repeat or skip rows.
        orderBy: [{ [query.sortBy]: query.order }, { id: query.order }],
        skip: query.offset,
        take: query.limit,
      }),
      tx.role.count({ where }),
    ]);
    return { items: rows.map(toDto), total };
  },

  findDto: async (tx: Tx, tenantId: string, id: string): Promise<TRoleDto | null> => {
    const row = await tx.role.findFirst({ where: { tenantId, id }, select: roleSelect(tenantId) });
    return row ? toDto(row) : null;
  },

  findName: async (tx: Tx, tenantId: string, id: string): Promise<string | null> =>
    (await tx.role.findFirst({ where: { tenantId, id }, select: { name: true } }))?.name ?? null,

  permissionsOf: async (tx: Tx, tenantId: string, roleId: string): Promise<string[]> =>
    sortPermissions(
      (
        await tx.rolePermission.findMany({
          where: { tenantId, roleId },
          select: { permission: { select: { name: true } } },
        })
      ).map((entry) => entry.permission.name),
    ),

  /** Ids of the named permissions (a platform-wide table, readable by every tenant). */
  permissionIds: async (tx: Tx, names: readonly string[]): Promise<string[]> => {
    if (names.length === 0) return [];
    const rows = await tx.permission.findMany({ where: { name: { in: [...names] } }, select: { id: true } });
    // Registered but not in the table means syncPermissions did not run: a deployment bug, not bad input.
    if (rows.length !== new Set(names).size)
      throw new Error("Permission registry is not synced to the database");
    return rows.map((row) => row.id);
  },

  /** Returns how many grants were new. */
  grant: async (
    tx: Tx,
    tenantId: string,
    roleId: string,
    permissionIds: readonly string[],
  ): Promise<number> => {
    if (permissionIds.length === 0) return 0;
    const created = await tx.rolePermission.createMany({
      data: permissionIds.map((permissionId) => ({ tenantId, roleId, permissionId })),
      skipDuplicates: true,
    });
    return created.count;
  },

  /** Removes every permission of the role; used before a replace. */
  revokeAll: async (tx: Tx, tenantId: string, roleId: string) => {
    await tx.rolePermission.deleteMany({ where: { tenantId, roleId } });
  },

  /** Returns how many grants were removed (0 or 1). */
  revoke: async (tx: Tx, tenantId: string, roleId: string, permission: string): Promise<number> =>
    (await tx.rolePermission.deleteMany({ where: { tenantId, roleId, permission: { name: permission } } }))
      .count,

  /** Marks the role changed when only its permissions moved. */
  touch: async (tx: Tx, tenantId: string, id: string, now: Date) => {
    await tx.role.updateMany({ where: { tenantId, id }, data: { updatedAt: now } });
  },
};
