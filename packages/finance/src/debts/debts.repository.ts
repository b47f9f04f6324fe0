import type { RecordReadDefinition } from "@hisob/crud";
import type { Prisma, Tx } from "@hisob/db";
import { dateOf, toIsoDate } from "@hisob/kernel/schema";
import type { z } from "zod";
import {
  DEBT_SORT_FIELDS,
  type TDebtDetailDto,
  type TDebtDto,
  type TDebtSettlementDto,
  type ZListDebtsQuery,
} from "./debts.schema";

const debtSelect = {
  id: true,
  kind: true,
  counterpartyId: true,
  currencyCode: true,
  amount: true,
  outstanding: true,
  dueDate: true,
  description: true,
  status: true,
  writtenOffAmount: true,
  writtenOffAt: true,
  writtenOffBy: true,
  writeOffReason: true,
  createdBy: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.DebtSelect;

export type DebtRow = Prisma.DebtGetPayload<{ select: typeof debtSelect }>;

const OPEN_STATUSES: DebtRow["status"][] = ["pending", "partial"];
const CLOSED_STATUSES: DebtRow["status"][] = ["settled", "written_off"];

type DebtFilters = Omit<z.output<typeof ZListDebtsQuery>, "limit" | "offset">;

/** The list's named filters (its download uses them too); the tenant is the building block's. */
const debtFilters = (query: DebtFilters): Prisma.DebtWhereInput => ({
  ...(query.status ? { status: query.status } : {}),
  ...(query.kind ? { kind: query.kind } : {}),
  ...(query.counterpartyId ? { counterpartyId: query.counterpartyId } : {}),
  ...(query.currency ? { currencyCode: query.currency } : {}),
  // Beside `status` and the due range, never instead of them: all given, all apply.
  ...(query.open === undefined && !query.notDueOn
    ? {}
    : {
        AND: [
          ...(query.open === undefined
            ? []
            : [{ status: { in: query.open ? OPEN_STATUSES : CLOSED_STATUSES } }]),
          ...(query.notDueOn
            ? [{ OR: [{ dueDate: null }, { dueDate: { gte: dateOf(query.notDueOn) } }] }]
            : []),
        ],
      }),
  ...(query.dueBefore || query.dueAfter
    ? {
        dueDate: {
          ...(query.dueBefore ? { lt: dateOf(query.dueBefore) } : {}),
          ...(query.dueAfter ? { gt: dateOf(query.dueAfter) } : {}),
        },
      }
    : {}),
});

const documentFacts = { select: { accountId: true, transactionId: true, comment: true } } as const;

const settlementSelect = {
  id: true,
  debtId: true,
  amount: true,
  date: true,
  paymentId: true,
  expenseId: true,
  createdBy: true,
  createdAt: true,
  payment: documentFacts,
  expense: documentFacts,
} satisfies Prisma.DebtSettlementSelect;

type SettlementRow = Prisma.DebtSettlementGetPayload<{ select: typeof settlementSelect }>;

const toDebtDto = (row: DebtRow): TDebtDto => ({
  id: row.id,
  kind: row.kind,
  counterpartyId: row.counterpartyId,
  currency: row.currencyCode,
  amount: row.amount.toString(),
  outstanding: row.outstanding.toString(),
  settled: (row.amount - row.outstanding - (row.writtenOffAmount ?? 0n)).toString(),
  dueDate: row.dueDate ? toIsoDate(row.dueDate) : null,
  description: row.description,
  status: row.status,
  writeOff:
    row.writtenOffAt && row.writtenOffBy && row.writtenOffAmount !== null
      ? {
          amount: row.writtenOffAmount.toString(),
          at: row.writtenOffAt.toISOString(),
          by: row.writtenOffBy,
          reason: row.writeOffReason ?? "",
        }
      : null,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * The debts list on the record building block (`@hisob/crud`'s reads): its named filters, its order
 * (debts without a due date after every dated one, in either direction) and the count. A debt's
 * writes stay in debts.service and debt-settlements.service: they lock the row, are idempotent and
 * raise the debt's own events.
 */
export const debtRecord: RecordReadDefinition<DebtRow, TDebtDto> = {
  missing: { reason: "finance.debt_not_found", message: "Debt not found" },
  permissions: { read: "debts:read:all" },
  model: (tx) => tx.debt,
  select: debtSelect,
  toDto: toDebtDto,
  sortFields: DEBT_SORT_FIELDS,
  defaultOrder: "desc",
  orderOf: (field, order) =>
    field === "dueDate" ? { dueDate: { sort: order, nulls: "last" } } : { [field]: order },
  filters: {},
  listWhere: (query) => debtFilters(query as DebtFilters),
};

const toSettlementDto = (row: SettlementRow): TDebtSettlementDto => {
  const document = row.payment ?? row.expense;
  if (!document) throw new Error(`settlement ${row.id} has no document`);
  return {
    id: row.id,
    debtId: row.debtId,
    amount: row.amount.toString(),
    date: toIsoDate(row.date),
    accountId: document.accountId,
    paymentId: row.paymentId,
    expenseId: row.expenseId,
    transactionId: document.transactionId,
    comment: document.comment,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  };
};

/** What the download shows: the counterparty's name beside the debt's own columns. */
export const debtExportSelect = {
  id: true,
  kind: true,
  amount: true,
  outstanding: true,
  currencyCode: true,
  dueDate: true,
  status: true,
  description: true,
  createdAt: true,
  updatedAt: true,
  counterparty: { select: { name: true } },
} satisfies Prisma.DebtSelect;

export type DebtExportRow = Prisma.DebtGetPayload<{ select: typeof debtExportSelect }>;

/** Debts and their settlements of one tenant; every query carries the tenant (wall 1; RLS is wall 2). */
export const debtsRepository = {
  findDetail: async (tx: Tx, tenantId: string, id: string): Promise<TDebtDetailDto | null> => {
    const row = await tx.debt.findFirst({ where: { tenantId, id }, select: debtSelect });
    if (!row) return null;
    const settlements = await tx.debtSettlement.findMany({
      where: { tenantId, debtId: id },
      select: settlementSelect,
      orderBy: [{ date: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    });
    return { ...toDebtDto(row), settlements: settlements.map(toSettlementDto) };
  },

  /** The debt's row, locked: changes that depend on its outstanding amount queue here. */
  lock: async (tx: Tx, tenantId: string, id: string): Promise<DebtRow | null> => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM debts WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid FOR UPDATE`;
    if (locked.length === 0) return null;
    return tx.debt.findFirst({ where: { tenantId, id }, select: debtSelect });
  },

  insert: async (tx: Tx, data: Prisma.DebtUncheckedCreateInput): Promise<void> => {
    await tx.debt.create({ data, select: { id: true } });
  },

  /** Undefined fields stay as they are. */
  update: async (tx: Tx, tenantId: string, id: string, data: Prisma.DebtUncheckedUpdateManyInput) => {
    await tx.debt.updateMany({ where: { tenantId, id }, data });
  },

  delete: async (tx: Tx, tenantId: string, id: string): Promise<void> => {
    await tx.debt.deleteMany({ where: { tenantId, id } });
  },

  findSettlement: (tx: Tx, tenantId: string, debtId: string, id: string) =>
    tx.debtSettlement.findFirst({
      where: { tenantId, debtId, id },
      select: { amount: true, date: true, paymentId: true, expenseId: true },
    }),

  insertSettlement: async (tx: Tx, data: Prisma.DebtSettlementUncheckedCreateInput): Promise<void> => {
    await tx.debtSettlement.create({ data, select: { id: true } });
  },

  deleteSettlement: async (tx: Tx, tenantId: string, id: string): Promise<void> => {
    await tx.debtSettlement.deleteMany({ where: { tenantId, id } });
  },

  /** Digits after the point of a currency, for naming an amount in a message. */
  minorUnitsOf: async (tx: Tx, code: string): Promise<number> => {
    const currency = await tx.currency.findUnique({ where: { code }, select: { minorUnits: true } });
    return currency?.minorUnits ?? 2;
  },

  /** Whether the tenant has selected the currency. */
  currencySelected: async (tx: Tx, tenantId: string, currency: string) =>
    (await tx.tenantCurrency.count({ where: { tenantId, currencyCode: currency } })) > 0,
};
