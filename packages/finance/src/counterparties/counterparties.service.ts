import { type Db, violatedForeignKey } from "@hisob/db";
import {
  AppError,
  type Clock,
  type Page,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import { notFound } from "../finance-errors";
import { counterpartiesRepository as repository } from "./counterparties.repository";
import {
  type TCounterpartyDto,
  type TCreateCounterpartyInput,
  type TListCounterpartiesQuery,
  type TUpdateCounterpartyInput,
  ZCreateCounterpartyInput,
  ZListCounterpartiesQuery,
  ZUpdateCounterpartyInput,
} from "./counterparties.schema";

export { counterpartiesWhere } from "./counterparties.repository";

const counterpartyNotFound = () => notFound("finance.counterparty_not_found", "Counterparty not found");

/**
 * Customers and suppliers. Payments, expenses and debts refer to them; the database keeps those
 * references whole. Inputs are typed as the wire sends them and parsed here, whoever calls.
 */
export const createCounterpartiesService = (deps: { db: Db; clock?: Clock }) => {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;

  return {
    list: async (ctx: TenantContext, rawQuery: TListCounterpartiesQuery): Promise<Page<TCounterpartyDto>> => {
      requirePermission(ctx, "counterparties:read:all");
      const query = parseInput(ZListCounterpartiesQuery, rawQuery);
      const page = await db.withTenant(ctx.tenantId, (tx) => repository.list(tx, ctx.tenantId, query));
      return { ...page, limit: query.limit, offset: query.offset };
    },

    /** Batch read for per-request loaders (GraphQL): the ones that exist in the caller's tenant, any order. */
    findByIds: async (ctx: TenantContext, ids: readonly string[]): Promise<TCounterpartyDto[]> => {
      requirePermission(ctx, "counterparties:read:all");
      if (ids.length === 0) return [];
      return db.withTenant(ctx.tenantId, (tx) => repository.findByIds(tx, ctx.tenantId, ids));
    },

    get: async (ctx: TenantContext, id: string): Promise<TCounterpartyDto> => {
      requirePermission(ctx, "counterparties:read:all");
      const dto = await db.withTenant(ctx.tenantId, (tx) => repository.findById(tx, ctx.tenantId, id));
      if (!dto) throw counterpartyNotFound();
      return dto;
    },

    create: async (ctx: TenantContext, raw: TCreateCounterpartyInput): Promise<TCounterpartyDto> => {
      requirePermission(ctx, "counterparties:create:all");
      const input = parseInput(ZCreateCounterpartyInput, raw);
      return db.withTenant(ctx.tenantId, (tx) => repository.insert(tx, ctx.tenantId, input, clock.now()));
    },

    update: async (
      ctx: TenantContext,
      id: string,
      raw: TUpdateCounterpartyInput,
    ): Promise<TCounterpartyDto> => {
      requirePermission(ctx, "counterparties:update:all");
      const input = parseInput(ZUpdateCounterpartyInput, raw);
      return db.withTenant(ctx.tenantId, async (tx) => {
        if (!(await repository.update(tx, ctx.tenantId, id, input, clock.now())))
          throw counterpartyNotFound();
        const dto = await repository.findById(tx, ctx.tenantId, id);
        if (!dto) throw counterpartyNotFound();
        return dto;
      });
    },

    /** Refused while a payment, expense or debt refers to it (the foreign keys say so, race-free). */
    delete: async (ctx: TenantContext, id: string): Promise<void> => {
      requirePermission(ctx, "counterparties:delete:all");
      try {
        await db.withTenant(ctx.tenantId, async (tx) => {
          if (!(await repository.delete(tx, ctx.tenantId, id))) throw counterpartyNotFound();
        });
      } catch (error) {
        if (violatedForeignKey(error) !== null) {
          throw new AppError("CONFLICT", {
            reason: "finance.counterparty_in_use",
            message: "Payments, expenses or debts refer to the counterparty; it cannot be deleted",
          });
        }
        throw error;
      }
    },
  };
};

export type CounterpartiesService = ReturnType<typeof createCounterpartiesService>;
