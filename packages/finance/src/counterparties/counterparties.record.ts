import type { Prisma } from "@hisob/db";
import { searchIn } from "@hisob/kernel";
import type { z } from "zod";
import type { TCounterpartyDto, ZListCounterpartiesQuery } from "./counterparties.schema";

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

export const toDto = (row: CounterpartyRow): TCounterpartyDto => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** `customer` also finds those that are both; `supplier` likewise. */
const typeFilter = (type: TCounterpartyDto["type"]): Prisma.CounterpartyWhereInput =>
  type === "customer" || type === "supplier" ? { type: { in: [type, "both"] } } : { type };

type ListQuery = z.output<typeof ZListCounterpartiesQuery>;

/** The list's named filters (its download uses them too). */
export const counterpartyFilters = (
  query: Pick<ListQuery, "type" | "tin" | "search">,
): Prisma.CounterpartyWhereInput => ({
  ...(query.type ? typeFilter(query.type) : {}),
  ...(query.tin ? { tin: query.tin } : {}),
  ...(query.search ? { OR: searchIn(["name", "tin", "phone", "email"], query.search) } : {}),
});

/** Every counterparty of a tenant the list's filters keep. */
export const counterpartiesWhere = (
  tenantId: string,
  query: Pick<ListQuery, "type" | "tin" | "search">,
): Prisma.CounterpartyWhereInput => ({ tenantId, ...counterpartyFilters(query) });
