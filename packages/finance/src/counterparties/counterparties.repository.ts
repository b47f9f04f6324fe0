import type { Prisma, Tx } from "@hisob/db";
import type { z } from "zod";
import type {
  TCounterpartyDto,
  ZCreateCounterpartyInput,
  ZListCounterpartiesQuery,
  ZUpdateCounterpartyInput,
} from "./counterparties.schema";

/** What every read of a counterparty selects (the list, the detail, loaders and the download). */
export const counterpartySelect = {
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

export type CounterpartyRow = Prisma.CounterpartyGetPayload<{ select: typeof counterpartySelect }>;

const toDto = (row: CounterpartyRow): TCounterpartyDto => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** `customer` also finds those that are both; `supplier` likewise. */
const typeFilter = (type: TCounterpartyDto["type"]): Prisma.CounterpartyWhereInput =>
  type === "customer" || type === "supplier" ? { type: { in: [type, "both"] } } : { type };

type ListQuery = z.output<typeof ZListCounterpartiesQuery>;

/** The list's filters (its download uses them too). */
export const counterpartiesWhere = (
  tenantId: string,
  query: Pick<ListQuery, "type" | "tin" | "search">,
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

/** Counterparties of one tenant; every query carries the tenant (wall 1; RLS is wall 2). */
export const counterpartiesRepository = {
  findById: async (tx: Tx, tenantId: string, id: string): Promise<TCounterpartyDto | null> => {
    const row = await tx.counterparty.findFirst({ where: { tenantId, id }, select: counterpartySelect });
    return row ? toDto(row) : null;
  },

  /** The ones that exist in the tenant, in any order (per-request loaders batch through this). */
  findByIds: async (tx: Tx, tenantId: string, ids: readonly string[]): Promise<TCounterpartyDto[]> => {
    if (ids.length === 0) return [];
    const rows = await tx.counterparty.findMany({
      where: { tenantId, id: { in: [...ids] } },
      select: counterpartySelect,
    });
    return rows.map(toDto);
  },

  list: async (tx: Tx, tenantId: string, query: ListQuery) => {
    const where = counterpartiesWhere(tenantId, query);
    const [rows, total] = await Promise.all([
      tx.counterparty.findMany({
        where,
        select: counterpartySelect,
        // The id breaks ties so pages never repeat or skip rows.
        orderBy: [{ [query.sortBy]: query.order }, { id: query.order }],
        skip: query.offset,
        take: query.limit,
      }),
      tx.counterparty.count({ where }),
    ]);
    return { items: rows.map(toDto), total };
  },

  insert: async (
    tx: Tx,
    tenantId: string,
    input: z.output<typeof ZCreateCounterpartyInput>,
    now: Date,
  ): Promise<TCounterpartyDto> =>
    toDto(
      await tx.counterparty.create({
        data: { tenantId, ...input, createdAt: now, updatedAt: now },
        select: counterpartySelect,
      }),
    ),

  /** False when there is no such counterparty in the tenant. Undefined fields stay as they are. */
  update: async (
    tx: Tx,
    tenantId: string,
    id: string,
    input: z.output<typeof ZUpdateCounterpartyInput>,
    now: Date,
  ): Promise<boolean> => {
    const updated = await tx.counterparty.updateMany({
      where: { tenantId, id },
      data: { ...input, updatedAt: now },
    });
    return updated.count > 0;
  },

  /** False when there is no such counterparty; a foreign-key error when something refers to it. */
  delete: async (tx: Tx, tenantId: string, id: string): Promise<boolean> => {
    const deleted = await tx.counterparty.deleteMany({ where: { tenantId, id } });
    return deleted.count > 0;
  },
};
