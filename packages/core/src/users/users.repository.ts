import type { Prisma, Tx } from "@hisob/db";
import { containsText, filterConditions, searchIn, type TypedFilter } from "@hisob/kernel";
import type { z } from "zod";
import { loadEffectivePermissions } from "../permissions/effective-permissions";
import type { TListUsersQuery, TUserDto, ZListUsersQuery } from "./users.schema";

const USER_SELECT = {
  id: true,
  email: true,
  firstName: true,
  lastName: true,
  uiLanguage: true,
  isActive: true,
  avatarUrl: true,
  passwordHash: true,
  createdAt: true,
  updatedAt: true,
  roles: { select: { role: { select: { id: true, name: true } } } },
  groups: { select: { group: { select: { id: true, name: true } } } },
} satisfies Prisma.UserSelect;

type UserRow = Prisma.UserGetPayload<{ select: typeof USER_SELECT }>;

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

const toDto = (row: UserRow, permissions: string[]): TUserDto => ({
  id: row.id,
  firstName: row.firstName,
  lastName: row.lastName,
  email: row.email,
  uiLanguage: row.uiLanguage as TUserDto["uiLanguage"],
  active: row.isActive,
  avatarUrl: row.avatarUrl,
  hasPassword: row.passwordHash !== null,
  roles: row.roles.map((entry) => entry.role).sort(byName),
  groups: row.groups.map((entry) => entry.group).sort(byName),
  permissions,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The list's filters as a Prisma where (shared by the list and the export). */
export const usersWhere = (
  tenantId: string,
  query: Pick<z.output<typeof ZListUsersQuery>, "email" | "name" | "roleId" | "active">,
): Prisma.UserWhereInput => ({
  tenantId,
  ...(query.email ? { email: containsText(query.email) } : {}),
  ...(query.name
    ? {
        OR: searchIn(["firstName", "lastName"], query.name),
      }
    : {}),
  ...(query.roleId ? { roles: { some: { roleId: query.roleId } } } : {}),
  ...(query.active === undefined ? {} : { isActive: query.active }),
});

/** Users of one tenant; every query carries the tenant (wall 1; RLS is wall 2). */
export const usersRepository = {
  /** Page of users as DTOs: one query for rows, one for the total, one for permissions. */
  list: async (
    tx: Tx,
    tenantId: string,
    query: z.output<typeof ZListUsersQuery>,
    onlyUserId?: string,
    listing: {
      filters?: readonly TypedFilter[];
      sort?: readonly { field: string; order: "asc" | "desc" }[];
    } = {},
  ) => {
    const conditions = filterConditions(listing.filters ?? []) as Prisma.UserWhereInput[];
    const where: Prisma.UserWhereInput = {
      ...usersWhere(tenantId, query),
      ...(onlyUserId ? { id: onlyUserId } : {}),
      ...(conditions.length > 0 ? { AND: conditions } : {}),
    };
    const sort = listing.sort?.length ? listing.sort : [{ field: query.sortBy, order: query.order }];
    const last = sort[sort.length - 1]?.order ?? query.order;
    const [rows, total] = await Promise.all([
      tx.user.findMany({
        where,
        select: USER_SELECT,
        // The id breaks ties so pages never repeat or skip rows.
        orderBy: [...sort.map(({ field, order }) => ({ [field]: order })), { id: last }],
        skip: query.offset,
        take: query.limit,
      }),
      tx.user.count({ where }),
    ]);
    const permissions = await loadEffectivePermissions(
      tx,
      tenantId,
      rows.map((row) => row.id),
    );
    return { items: rows.map((row) => toDto(row, permissions.get(row.id) ?? [])), total };
  },

  findDto: async (tx: Tx, tenantId: string, id: string): Promise<TUserDto | null> => {
    const row = await tx.user.findFirst({ where: { tenantId, id }, select: USER_SELECT });
    if (!row) return null;
    const permissions = await loadEffectivePermissions(tx, tenantId, [id]);
    return toDto(row, permissions.get(id) ?? []);
  },

  exists: async (tx: Tx, tenantId: string, id: string): Promise<boolean> =>
    (await tx.user.count({ where: { tenantId, id } })) > 0,
};

export type { TListUsersQuery };
