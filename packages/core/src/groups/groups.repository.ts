import type { Prisma, Tx } from "@hisob/db";
import { containsText } from "@hisob/kernel";
import type { z } from "zod";
import type { TGroupDto, ZListGroupsQuery } from "./groups.schema";

const groupSelect = (tenantId: string) =>
  ({
    id: true,
    name: true,
    description: true,
    createdAt: true,
    updatedAt: true,
    // The tenant in nested reads too: wall 1 does not rely on the parent row.
    roles: { where: { tenantId }, select: { role: { select: { id: true, name: true } } } },
    users: {
      where: { tenantId },
      select: { user: { select: { id: true, email: true, firstName: true, lastName: true } } },
    },
  }) satisfies Prisma.GroupSelect;

type GroupRow = Prisma.GroupGetPayload<{ select: ReturnType<typeof groupSelect> }>;

/** Code-unit order: the same on every host, unlike localeCompare. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

type Member = TGroupDto["users"][number];
const byMember = (a: Member, b: Member) =>
  compare(a.lastName, b.lastName) || compare(a.firstName, b.firstName) || compare(a.email, b.email);

const toDto = (row: GroupRow): TGroupDto => ({
  id: row.id,
  name: row.name,
  description: row.description,
  roles: row.roles.map((entry) => entry.role).sort((a, b) => compare(a.name, b.name)),
  users: row.users.map((entry) => entry.user).sort(byMember),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Groups of one tenant, their roles and users; every query carries the tenant (wall 1; RLS is wall 2). */
export const groupsRepository = {
  list: async (tx: Tx, tenantId: string, query: z.output<typeof ZListGroupsQuery>) => {
    const where: Prisma.GroupWhereInput = {
      tenantId,
      ...(query.name ? { name: containsText(query.name) } : {}),
    };
    const [rows, total] = await Promise.all([
      tx.group.findMany({
        where,
        select: groupSelect(tenantId),
        // The id breaks ties so pages never repeat or skip rows.
        orderBy: [{ [query.sortBy]: query.order }, { id: query.order }],
        skip: query.offset,
        take: query.limit,
      }),
      tx.group.count({ where }),
    ]);
    return { items: rows.map(toDto), total };
  },

  findDto: async (tx: Tx, tenantId: string, id: string): Promise<TGroupDto | null> => {
    const row = await tx.group.findFirst({ where: { tenantId, id }, select: groupSelect(tenantId) });
    return row ? toDto(row) : null;
  },

  exists: async (tx: Tx, tenantId: string, id: string): Promise<boolean> =>
    (await tx.group.count({ where: { tenantId, id } })) > 0,

  /** Those of `ids` that are not roles of the tenant (another tenant's roles do not exist here). */
  missingRoles: async (tx: Tx, tenantId: string, ids: readonly string[]): Promise<string[]> => {
    if (ids.length === 0) return [];
    const found = await tx.role.findMany({ where: { tenantId, id: { in: [...ids] } }, select: { id: true } });
    const known = new Set(found.map((row) => row.id));
    return ids.filter((id) => !known.has(id));
  },

  /** Those of `ids` that are not users of the tenant. */
  missingUsers: async (tx: Tx, tenantId: string, ids: readonly string[]): Promise<string[]> => {
    if (ids.length === 0) return [];
    const found = await tx.user.findMany({ where: { tenantId, id: { in: [...ids] } }, select: { id: true } });
    const known = new Set(found.map((row) => row.id));
    return ids.filter((id) => !known.has(id));
  },

  addRoles: async (tx: Tx, tenantId: string, groupId: string, roleIds: readonly string[]) => {
    if (roleIds.length === 0) return;
    await tx.groupRole.createMany({
      data: roleIds.map((roleId) => ({ tenantId, groupId, roleId })),
      skipDuplicates: true,
    });
  },

  removeAllRoles: async (tx: Tx, tenantId: string, groupId: string) => {
    await tx.groupRole.deleteMany({ where: { tenantId, groupId } });
  },

  /** Returns how many memberships were new. */
  addUsers: async (
    tx: Tx,
    tenantId: string,
    groupId: string,
    userIds: readonly string[],
  ): Promise<number> => {
    if (userIds.length === 0) return 0;
    const created = await tx.groupUser.createMany({
      data: userIds.map((userId) => ({ tenantId, groupId, userId })),
      skipDuplicates: true,
    });
    return created.count;
  },

  /** Returns how many memberships were removed (0 or 1). */
  removeUser: async (tx: Tx, tenantId: string, groupId: string, userId: string): Promise<number> =>
    (await tx.groupUser.deleteMany({ where: { tenantId, groupId, userId } })).count,

  /** Marks the group changed when only its members moved. */
  touch: async (tx: Tx, tenantId: string, id: string, now: Date) => {
    await tx.group.updateMany({ where: { tenantId, id }, data: { updatedAt: now } });
  },
};
