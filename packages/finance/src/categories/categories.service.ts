import { audit, type Db, diffFields, Prisma, type Tx, violatedForeignKey } from "@hisob/db";
import {
  AppError,
  type Clock,
  type Page,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import { fieldError, notFound } from "../finance-errors";
import {
  type TCategoryDto,
  type TCreateCategoryInput,
  type TListCategoriesQuery,
  type TUpdateCategoryInput,
  ZCreateCategoryInput,
  ZListCategoriesQuery,
  ZUpdateCategoryInput,
} from "./categories.schema";

/** What differs between the two trees; everything else is one implementation. */
export type CategoryKind = {
  name: "payment" | "expense";
  table: "payment_categories" | "expense_categories";
  /** What uses a category of this kind (named in the "in use" message). */
  users: "payments" | "expenses";
  /** Key of the transaction-scoped advisory lock that serialises moves within one tenant's tree. */
  lockClass: number;
};

export const PAYMENT_CATEGORY: CategoryKind = {
  name: "payment",
  table: "payment_categories",
  users: "payments",
  lockClass: 0x4869_0001,
};

export const EXPENSE_CATEGORY: CategoryKind = {
  name: "expense",
  table: "expense_categories",
  users: "expenses",
  lockClass: 0x4869_0002,
};

const categorySelect = {
  id: true,
  parentId: true,
  name: true,
  description: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.PaymentCategorySelect;

type CategoryRow = Prisma.PaymentCategoryGetPayload<{ select: typeof categorySelect }>;

const toDto = (row: CategoryRow): TCategoryDto => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const unknownParent = () =>
  fieldError(
    "parentId",
    "finance.unknown_parent_category",
    "is not a category of this kind in this organization",
  );

const cycle = () =>
  fieldError(
    "parentId",
    "finance.category_cycle",
    "cannot be the category itself or one of its subcategories",
  );

export const createCategoriesService = (kind: CategoryKind, deps: { db: Db; clock?: Clock }) => {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;
  // Both tables have identical columns: one delegate type serves both.
  const table = (tx: Tx) =>
    (kind.name === "payment" ? tx.paymentCategory : tx.expenseCategory) as unknown as Tx["paymentCategory"];
  const categoryNotFound = () =>
    kind.name === "payment"
      ? notFound("finance.payment_category_not_found", "Payment category not found")
      : notFound("finance.expense_category_not_found", "Expense category not found");

  const find = async (tx: Tx, tenantId: string, id: string): Promise<TCategoryDto | null> => {
    const row = await table(tx).findFirst({ where: { tenantId, id }, select: categorySelect });
    return row ? toDto(row) : null;
  };

  /**
   * Would hanging `id` under `parentId` make it its own ancestor? Walks up from the new parent with
   * a recursive CTE (UNION, so even a corrupt cyclic tree terminates). The caller holds the tree's
   * advisory lock, so no concurrent move can invalidate the answer before it commits.
   */
  const wouldCycle = async (tx: Tx, tenantId: string, id: string, parentId: string): Promise<boolean> => {
    const tableName = Prisma.raw(`"${kind.table}"`);
    const [row] = await tx.$queryRaw<{ cycle: boolean }[]>`
      WITH RECURSIVE ancestors(id, parent_id) AS (
        SELECT id, parent_id FROM ${tableName} WHERE tenant_id = ${tenantId}::uuid AND id = ${parentId}::uuid
        UNION
        SELECT c.id, c.parent_id FROM ${tableName} c
          JOIN ancestors a ON c.tenant_id = ${tenantId}::uuid AND c.id = a.parent_id
      )
      SELECT EXISTS (SELECT 1 FROM ancestors WHERE id = ${id}::uuid) AS cycle`;
    return row?.cycle === true;
  };

  /** An unknown parent is caught by the tenant-scoped self-reference: name the field. */
  const rethrowUnknownParent = (error: unknown): never => {
    if (violatedForeignKey(error) !== null) throw unknownParent();
    throw error;
  };

  return {
    list: async (ctx: TenantContext, rawQuery: TListCategoriesQuery): Promise<Page<TCategoryDto>> => {
      requirePermission(ctx, "categories:read:all");
      const query = parseInput(ZListCategoriesQuery, rawQuery);
      const where: Prisma.PaymentCategoryWhereInput = {
        tenantId: ctx.tenantId,
        ...(query.parentId ? { parentId: query.parentId } : {}),
        ...(query.root === true ? { parentId: null } : {}),
        ...(query.root === false ? { parentId: { not: null } } : {}),
        ...(query.search
          ? {
              OR: [
                { name: { contains: query.search, mode: "insensitive" } },
                { description: { contains: query.search, mode: "insensitive" } },
              ],
            }
          : {}),
      };
      const [rows, total] = await db.withTenant(ctx.tenantId, (tx) =>
        Promise.all([
          table(tx).findMany({
            where,
            select: categorySelect,
            orderBy: [{ [query.sortBy]: query.order }, { id: query.order }],
            skip: query.offset,
            take: query.limit,
          }),
          table(tx).count({ where }),
        ]),
      );
      return { items: rows.map(toDto), total, limit: query.limit, offset: query.offset };
    },

    /** Batch read for per-request loaders (GraphQL): the ones that exist in the caller's tenant, any order. */
    findByIds: async (ctx: TenantContext, ids: readonly string[]): Promise<TCategoryDto[]> => {
      requirePermission(ctx, "categories:read:all");
      if (ids.length === 0) return [];
      const rows = await db.withTenant(ctx.tenantId, (tx) =>
        table(tx).findMany({
          where: { tenantId: ctx.tenantId, id: { in: [...ids] } },
          select: categorySelect,
        }),
      );
      return rows.map(toDto);
    },

    get: async (ctx: TenantContext, id: string): Promise<TCategoryDto> => {
      requirePermission(ctx, "categories:read:all");
      const dto = await db.withTenant(ctx.tenantId, (tx) => find(tx, ctx.tenantId, id));
      if (!dto) throw categoryNotFound();
      return dto;
    },

    /** A new category has no subcategories, so it cannot close a cycle; the parent must exist. */
    create: async (ctx: TenantContext, raw: TCreateCategoryInput): Promise<TCategoryDto> => {
      requirePermission(ctx, "categories:create:all");
      const input = parseInput(ZCreateCategoryInput, raw);
      const now = clock.now();
      const row = await db
        .withTenant(ctx.tenantId, async (tx) => {
          const created = await table(tx).create({
            data: {
              tenantId: ctx.tenantId,
              parentId: input.parentId,
              name: input.name,
              description: input.description,
              createdAt: now,
              updatedAt: now,
            },
            select: categorySelect,
          });
          await audit(tx, ctx, `${kind.name}_category`, created.id, "create", { after: toDto(created) });
          return created;
        })
        .catch(rethrowUnknownParent);
      return toDto(row);
    },

    update: async (ctx: TenantContext, id: string, raw: TUpdateCategoryInput): Promise<TCategoryDto> => {
      requirePermission(ctx, "categories:update:all");
      const input = parseInput(ZUpdateCategoryInput, raw);
      const { tenantId } = ctx;
      return db
        .withTenant(tenantId, async (tx) => {
          if (input.parentId) {
            // Moves within one tenant's tree queue here: two moves that would each be fine alone
            // (A under B, B under A) cannot both pass the check below.
            await tx.$executeRaw`SELECT pg_advisory_xact_lock(${kind.lockClass}::int, hashtext(${tenantId}))`;
          }
          const before = await find(tx, tenantId, id);
          if (!before) throw categoryNotFound();
          if (input.parentId) {
            if (input.parentId === id) throw cycle();
            if (!(await find(tx, tenantId, input.parentId))) throw unknownParent();
            if (await wouldCycle(tx, tenantId, id, input.parentId)) throw cycle();
          }
          await table(tx).updateMany({
            where: { tenantId, id },
            data: {
              name: input.name,
              description: input.description,
              parentId: input.parentId,
              updatedAt: clock.now(),
            },
          });
          const dto = await find(tx, tenantId, id);
          if (!dto) throw categoryNotFound();
          await audit(tx, ctx, `${kind.name}_category`, id, "update", diffFields(before, dto));
          return dto;
        })
        .catch(rethrowUnknownParent);
    },

    /** Refused while it has subcategories or documents use it (the foreign keys decide, race-free). */
    delete: async (ctx: TenantContext, id: string): Promise<void> => {
      requirePermission(ctx, "categories:delete:all");
      try {
        await db.withTenant(ctx.tenantId, async (tx) => {
          const before = await find(tx, ctx.tenantId, id);
          const deleted = await table(tx).deleteMany({ where: { tenantId: ctx.tenantId, id } });
          if (deleted.count === 0) throw categoryNotFound();
          await audit(tx, ctx, `${kind.name}_category`, id, "delete", { before });
        });
      } catch (error) {
        const constraint = violatedForeignKey(error);
        if (constraint?.includes("parent")) {
          throw new AppError("CONFLICT", {
            reason: "finance.category_has_children",
            message: "The category has subcategories; move or delete them first",
          });
        }
        if (constraint !== null) {
          throw new AppError("CONFLICT", {
            reason: "finance.category_in_use",
            message: `The category is used by ${kind.users}; it cannot be deleted`,
          });
        }
        throw error;
      }
    },
  };
};

export type CategoriesService = ReturnType<typeof createCategoriesService>;
