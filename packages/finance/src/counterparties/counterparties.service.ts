import { type Db, type Prisma, type Tx, violatedForeignKey } from "@hisob/db";
import {
  AppError,
  type Clock,
  type Page,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import type { z } from "zod";
import { notFound } from "../finance-errors";
import {
  type TCounterpartyDto,
  type TListCounterpartiesQuery,
  ZCreateCounterpartyInput,
  ZListCounterpartiesQuery,
  ZUpdateCounterpartyInput,
} from "./counterparties.schema";

const counterpartySelect = {
  id: true,
  name: true,
  tin: true,
  type: true,
  phone: true,
  email: true,
  address: true,
  notes: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.CounterpartySelect;

type CounterpartyRow = Prisma.CounterpartyGetPayload<{ select: typeof counterpartySelect }>;

const toDto = (row: CounterpartyRow): TCounterpartyDto => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const counterpartyNotFound = () => notFound("finance.counterparty_not_found", "Counterparty not found");

const find = async (tx: Tx, tenantId: string, id: string): Promise<TCounterpartyDto | null> => {
  const row = await tx.counterparty.findFirst({ where: { tenantId, id }, select: counterpartySelect });
  return row ? toDto(row) : null;
};

/** `customer` also finds those that are both; `supplier` likewise. */
const typeFilter = (type: TCounterpartyDto["type"]): Prisma.CounterpartyWhereInput =>
  type === "customer" || type === "supplier" ? { type: { in: [type, "both"] } } : { type };

/** The list's filters (shared with its download). */
export const counterpartiesWhere = (
  tenantId: string,
  query: Pick<z.output<typeof ZListCounterpartiesQuery>, "type" | "tin" | "search">,
): Prisma.CounterpartyWhereInput => ({
  tenantId,
  ...(query.type ? typeFilter(query.type) : {}),
  ...(query.tin ? { tin: query.tin } : {}),
  ...(query.search
    ? {
        OR: (["name", "tin", "phone", "email"] as const).map((field) => ({
          [field]: { contains: query.search, mode: "insensitive" as const },
        })),
      }
    : {}),
});

/** Customers and suppliers. Payments, expenses and debts refer to them; the database keeps those references whole. */
export const createCounterpartiesService = (deps: { db: Db; clock?: Clock }) => {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;

  return {
    list: async (ctx: TenantContext, rawQuery: TListCounterpartiesQuery): Promise<Page<TCounterpartyDto>> => {
      requirePermission(ctx, "counterparties:read:all");
      const query = parseInput(ZListCounterpartiesQuery, rawQuery);
      const where = counterpartiesWhere(ctx.tenantId, query);
      const [rows, total] = await db.withTenant(ctx.tenantId, (tx) =>
        Promise.all([
          tx.counterparty.findMany({
            where,
            select: counterpartySelect,
            orderBy: [{ [query.sortBy]: query.order }, { id: query.order }],
            skip: query.offset,
            take: query.limit,
          }),
          tx.counterparty.count({ where }),
        ]),
      );
      return { items: rows.map(toDto), total, limit: query.limit, offset: query.offset };
    },

    /** Batch read for per-request loaders (GraphQL): the ones that exist in the caller's tenant, any order. */
    findByIds: async (ctx: TenantContext, ids: readonly string[]): Promise<TCounterpartyDto[]> => {
      requirePermission(ctx, "counterparties:read:all");
      if (ids.length === 0) return [];
      const rows = await db.withTenant(ctx.tenantId, (tx) =>
        tx.counterparty.findMany({
          where: { tenantId: ctx.tenantId, id: { in: [...ids] } },
          select: counterpartySelect,
        }),
      );
      return rows.map(toDto);
    },

    get: async (ctx: TenantContext, id: string): Promise<TCounterpartyDto> => {
      requirePermission(ctx, "counterparties:read:all");
      const dto = await db.withTenant(ctx.tenantId, (tx) => find(tx, ctx.tenantId, id));
      if (!dto) throw counterpartyNotFound();
      return dto;
    },

    create: async (ctx: TenantContext, raw: unknown): Promise<TCounterpartyDto> => {
      requirePermission(ctx, "counterparties:create:all");
      const input = parseInput(ZCreateCounterpartyInput, raw);
      const now = clock.now();
      const row = await db.withTenant(ctx.tenantId, (tx) =>
        tx.counterparty.create({
          data: { tenantId: ctx.tenantId, ...input, createdAt: now, updatedAt: now },
          select: counterpartySelect,
        }),
      );
      return toDto(row);
    },

    update: async (ctx: TenantContext, id: string, raw: unknown): Promise<TCounterpartyDto> => {
      requirePermission(ctx, "counterparties:update:all");
      const input = parseInput(ZUpdateCounterpartyInput, raw);
      return db.withTenant(ctx.tenantId, async (tx) => {
        const updated = await tx.counterparty.updateMany({
          where: { tenantId: ctx.tenantId, id },
          // Prisma leaves a field that is undefined as it is.
          data: { ...input, updatedAt: clock.now() },
        });
        if (updated.count === 0) throw counterpartyNotFound();
        const dto = await find(tx, ctx.tenantId, id);
        if (!dto) throw counterpartyNotFound();
        return dto;
      });
    },

    /** Refused while a payment, expense or debt refers to it (the foreign keys say so, race-free). */
    delete: async (ctx: TenantContext, id: string): Promise<void> => {
      requirePermission(ctx, "counterparties:delete:all");
      try {
        await db.withTenant(ctx.tenantId, async (tx) => {
          const deleted = await tx.counterparty.deleteMany({ where: { tenantId: ctx.tenantId, id } });
          if (deleted.count === 0) throw counterpartyNotFound();
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
