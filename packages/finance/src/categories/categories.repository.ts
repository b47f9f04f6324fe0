import { Prisma, type Tx } from "@hisob/db";
import { searchIn } from "@hisob/kernel";
import type { z } from "zod";
import type { TCategoryDto, ZListCategoriesQuery } from "./categories.schema";

/** Which tree: payment categories or expense categories; the two tables have identical columns. */
export type CategoryTable = "payment_categories" | "expense_categories";

/** What every read of a category selects (the list, the detail and loaders). */
const categorySelect = {
  id: true,
  parentId: true,
  name: true,
  description: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.PaymentCategorySelect;

type CategoryRow = Prisma.PaymentCategoryGetPayload<{ select: typeof categorySelect }>;

export const toCategoryDto = (row: CategoryRow): TCategoryDto => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

type ListQuery = z.output<typeof ZListCategoriesQuery>;

/** The list's filters. */
export const categoriesWhere = (
  tenantId: string,
  query: Pick<ListQuery, "parentId" | "root" | "search">,
): Prisma.PaymentCategoryWhereInput => ({
  tenantId,
  ...(query.parentId ? { parentId: query.parentId } : {}),
  ...(query.root === true ? { parentId: null } : {}),
  ...(query.root === false ? { parentId: { not: null } } : {}),
  ...(query.search
    ? {
        OR: searchIn(["name", "description"], query.search),
      }
    : {}),
});

/** Payment or expense categories of one tenant; every query carries the tenant (wall 1; RLS is wall 2). */
export const categoriesRepository = (table: CategoryTable) => {
  // One delegate type serves both tables.
  const delegate = (tx: Tx) =>
    (table === "payment_categories"
      ? tx.paymentCategory
      : tx.expenseCategory) as unknown as Tx["paymentCategory"];
  const tableName = Prisma.raw(`"${table}"`);

  return {
    findById: async (tx: Tx, tenantId: string, id: string): Promise<TCategoryDto | null> => {
      const row = await delegate(tx).findFirst({ where: { tenantId, id }, select: categorySelect });
      return row ? toCategoryDto(row) : null;
    },

    /** The ones that exist in the tenant, in any order (per-request loaders batch through this). */
    findByIds: async (tx: Tx, tenantId: string, ids: readonly string[]): Promise<TCategoryDto[]> => {
      if (ids.length === 0) return [];
      const rows = await delegate(tx).findMany({
        where: { tenantId, id: { in: [...ids] } },
        select: categorySelect,
      });
      return rows.map(toCategoryDto);
    },

    list: async (tx: Tx, tenantId: string, query: ListQuery) => {
      const where = categoriesWhere(tenantId, query);
      const [rows, total] = await Promise.all([
        delegate(tx).findMany({
          where,
          select: categorySelect,
          orderBy: [{ [query.sortBy]: query.order }, { id: query.order }],
          skip: query.offset,
          take: query.limit,
        }),
        delegate(tx).count({ where }),
      ]);
      return { items: rows.map(toCategoryDto), total };
    },

    /**
     * Would hanging `id` under `parentId` make it its own ancestor? Walks up from the new parent with
     * a recursive CTE (UNION, so even a corrupt cyclic tree terminates). The caller holds the tree's
     * advisory lock, so no concurrent move can invalidate the answer before it commits.
     */
    wouldCycle: async (tx: Tx, tenantId: string, id: string, parentId: string): Promise<boolean> => {
      const [row] = await tx.$queryRaw<{ cycle: boolean }[]>`
      WITH RECURSIVE ancestors(id, parent_id) AS (
        SELECT id, parent_id FROM ${tableName} WHERE tenant_id = ${tenantId}::uuid AND id = ${parentId}::uuid
        UNION
        SELECT c.id, c.parent_id FROM ${tableName} c
          JOIN ancestors a ON c.tenant_id = ${tenantId}::uuid AND c.id = a.parent_id
      )
      SELECT EXISTS (SELECT 1 FROM ancestors WHERE id = ${id}::uuid) AS cycle`;
      return row?.cycle === true;
    },

    /** Moves within one tenant's tree queue on this transaction-scoped advisory lock. */
    lockTree: async (tx: Tx, tenantId: string, lockClass: number): Promise<void> => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${lockClass}::int, hashtext(${tenantId}))`;
    },

    insert: async (
      tx: Tx,
      data: Omit<Prisma.PaymentCategoryUncheckedCreateInput, "id">,
    ): Promise<TCategoryDto> => toCategoryDto(await delegate(tx).create({ data, select: categorySelect })),

    /** Undefined fields stay as they are. */
    update: async (
      tx: Tx,
      tenantId: string,
      id: string,
      data: Prisma.PaymentCategoryUncheckedUpdateManyInput,
    ): Promise<void> => {
      await delegate(tx).updateMany({ where: { tenantId, id }, data });
    },

    /** How many documents (payments or expenses, as the tree's kind) refer to the category. */
    countUses: (tx: Tx, tenantId: string, id: string): Promise<number> =>
      table === "payment_categories"
        ? tx.payment.count({ where: { tenantId, categoryId: id } })
        : tx.expense.count({ where: { tenantId, categoryId: id } }),

    /** False when there is no such category; a foreign-key error while subcategories or documents use it. */
    delete: async (tx: Tx, tenantId: string, id: string): Promise<boolean> =>
      (await delegate(tx).deleteMany({ where: { tenantId, id } })).count > 0,
  };
};
