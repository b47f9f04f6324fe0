import { audit, type Db, diffFields, violatedForeignKey } from "@hisob/db";
import {
  AppError,
  type Clock,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import { fieldError, notFound } from "../finance-errors";
import { repositoryReads } from "../repository-reads";
import { categoriesRepository } from "./categories.repository";
import {
  type TCategoryDto,
  type TCreateCategoryInput,
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
  const repository = categoriesRepository(kind.table);
  const categoryNotFound = () =>
    kind.name === "payment"
      ? notFound("finance.payment_category_not_found", "Payment category not found")
      : notFound("finance.expense_category_not_found", "Expense category not found");

  /** An unknown parent is caught by the tenant-scoped self-reference: name the field. */
  const rethrowUnknownParent = (error: unknown): never => {
    if (violatedForeignKey(error) !== null) throw unknownParent();
    throw error;
  };

  return {
    ...repositoryReads({
      db,
      permission: "categories:read:all",
      listQuery: ZListCategoriesQuery,
      repository,
      notFound: categoryNotFound,
    }),

    /** A new category has no subcategories, so it cannot close a cycle; the parent must exist. */
    create: async (ctx: TenantContext, raw: TCreateCategoryInput): Promise<TCategoryDto> => {
      requirePermission(ctx, "categories:create:all");
      const input = parseInput(ZCreateCategoryInput, raw);
      const now = clock.now();
      return db
        .withTenant(ctx.tenantId, async (tx) => {
          const created = await repository.insert(tx, {
            tenantId: ctx.tenantId,
            parentId: input.parentId,
            name: input.name,
            description: input.description,
            createdAt: now,
            updatedAt: now,
          });
          await audit(tx, ctx, `${kind.name}_category`, created.id, "create", { after: created });
          return created;
        })
        .catch(rethrowUnknownParent);
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
            await repository.lockTree(tx, tenantId, kind.lockClass);
          }
          const before = await repository.findById(tx, tenantId, id);
          if (!before) throw categoryNotFound();
          if (input.parentId) {
            if (input.parentId === id) throw cycle();
            if (!(await repository.findById(tx, tenantId, input.parentId))) throw unknownParent();
            if (await repository.wouldCycle(tx, tenantId, id, input.parentId)) throw cycle();
          }
          await repository.update(tx, tenantId, id, {
            name: input.name,
            description: input.description,
            parentId: input.parentId,
            updatedAt: clock.now(),
          });
          const dto = await repository.findById(tx, tenantId, id);
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
          const before = await repository.findById(tx, ctx.tenantId, id);
          if (!(await repository.delete(tx, ctx.tenantId, id))) throw categoryNotFound();
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
          // Named with their number, so the user knows what to move first.
          const count = await db
            .withTenant(ctx.tenantId, (tx) => repository.countUses(tx, ctx.tenantId, id))
            .catch(() => null);
          throw new AppError("CONFLICT", {
            reason:
              kind.users === "payments"
                ? "finance.category_used_by_payments"
                : "finance.category_used_by_expenses",
            message: `${kind.users === "payments" ? "Payments" : "Expenses"} using the category: ${count ?? "some"}. Move them to another category first.`,
            params: { count: count ?? 0 },
          });
        }
        throw error;
      }
    },
  };
};

export type CategoriesService = ReturnType<typeof createCategoriesService>;
