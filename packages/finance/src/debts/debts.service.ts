import { audit, type Db, diffFields, type Outbox, type Prisma, type Tx, violatedForeignKey } from "@hisob/db";
import { formatMoney } from "@hisob/i18n";
import {
  AppError,
  type Clock,
  moneyParam,
  newId,
  type Page,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import type { z } from "zod";
import { dateOf, toIsoDate } from "../dates";
import { fieldError, notFound } from "../finance-errors";
import { accountCurrencies } from "../ledger/ledger";
import type { PaymentsExpensesService } from "../payments-expenses/payments-expenses.service";
import {
  type TDebtDetailDto,
  type TDebtDto,
  type TDebtSettlementDto,
  type TDebtSettlementResult,
  type TListDebtsQuery,
  ZCreateDebtInput,
  ZListDebtsQuery,
  ZSettleDebtInput,
  ZUpdateDebtInput,
  ZWriteOffDebtInput,
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

type DebtRow = Prisma.DebtGetPayload<{ select: typeof debtSelect }>;

/** Digits after the point of a currency, for naming an amount in a message. */
const minorUnitsOf = async (tx: Tx, code: string): Promise<number> => {
  const currency = await tx.currency.findUnique({ where: { code }, select: { minorUnits: true } });
  return currency?.minorUnits ?? 2;
};

type DebtFilters = Omit<z.output<typeof ZListDebtsQuery>, "limit" | "offset">;

/** The list's filters (shared with its download). */
export const debtsWhere = (tenantId: string, query: DebtFilters): Prisma.DebtWhereInput => ({
  tenantId,
  ...(query.status ? { status: query.status } : {}),
  ...(query.kind ? { kind: query.kind } : {}),
  ...(query.counterpartyId ? { counterpartyId: query.counterpartyId } : {}),
  ...(query.currency ? { currencyCode: query.currency } : {}),
  ...(query.dueBefore || query.dueAfter
    ? {
        dueDate: {
          ...(query.dueBefore ? { lt: dateOf(query.dueBefore) } : {}),
          ...(query.dueAfter ? { gt: dateOf(query.dueAfter) } : {}),
        },
      }
    : {}),
});

/** Debts without a due date sort after every dated one, in either direction. */
export const debtsOrder = (
  query: Pick<DebtFilters, "sortBy" | "order">,
): Prisma.DebtOrderByWithRelationInput =>
  query.sortBy === "dueDate"
    ? { dueDate: { sort: query.order, nulls: "last" } }
    : { [query.sortBy]: query.order };

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

const debtNotFound = () => notFound("finance.debt_not_found", "Debt not found");

const currencyNotSelected = () =>
  fieldError("currency", "finance.currency_not_selected", "is not one of the organization's currencies");

const alreadySettled = () =>
  new AppError("BUSINESS_RULE", {
    reason: "finance.debt_already_settled",
    message: "The debt is already settled",
  });

const writtenOff = () =>
  new AppError("BUSINESS_RULE", {
    reason: "finance.debt_written_off",
    message: "The debt was written off",
  });

/** Refuses any change to a closed debt (settled or written off). */
const refuseIfClosed = (status: DebtRow["status"]) => {
  if (status === "settled") throw alreadySettled();
  if (status === "written_off") throw writtenOff();
};

/** An unknown counterparty, or a currency deselected meanwhile, is caught by a tenant-scoped foreign key. */
const rethrowReference = (error: unknown): never => {
  const constraint = violatedForeignKey(error);
  if (constraint?.includes("counterparty")) {
    throw fieldError(
      "counterpartyId",
      "finance.unknown_counterparty",
      "is not a counterparty of this organization",
    );
  }
  if (constraint?.includes("currency")) throw currencyNotSelected();
  throw error;
};

const isSelected = async (tx: Tx, tenantId: string, currency: string) =>
  (await tx.tenantCurrency.count({ where: { tenantId, currencyCode: currency } })) > 0;

/**
 * Debts owed to the tenant (receivable) or by it (payable). Every change that depends on the
 * outstanding amount first locks the debt's row (SELECT … FOR UPDATE), so concurrent settlements,
 * write-offs and edits of one debt queue and each sees what the previous one committed.
 */
export const createDebtsService = (deps: {
  db: Db;
  outbox: Outbox;
  payments: PaymentsExpensesService;
  expenses: PaymentsExpensesService;
  clock?: Clock;
}) => {
  const { db, outbox, payments, expenses } = deps;
  const clock = deps.clock ?? systemClock;

  const lockDebt = async (tx: Tx, tenantId: string, id: string): Promise<DebtRow | null> => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM debts WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid FOR UPDATE`;
    if (locked.length === 0) return null;
    return tx.debt.findFirst({ where: { tenantId, id }, select: debtSelect });
  };

  const findDetail = async (tx: Tx, tenantId: string, id: string): Promise<TDebtDetailDto | null> => {
    const row = await tx.debt.findFirst({ where: { tenantId, id }, select: debtSelect });
    if (!row) return null;
    const settlements = await tx.debtSettlement.findMany({
      where: { tenantId, debtId: id },
      select: settlementSelect,
      orderBy: [{ date: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    });
    return { ...toDebtDto(row), settlements: settlements.map(toSettlementDto) };
  };

  const detailOrThrow = async (tx: Tx, tenantId: string, id: string): Promise<TDebtDetailDto> => {
    const detail = await findDetail(tx, tenantId, id);
    if (!detail) throw debtNotFound();
    return detail;
  };

  const raise = (tx: Tx, ctx: TenantContext, type: string, payload: Record<string, unknown>) =>
    outbox.raise(tx, { type, tenantId: ctx.tenantId, payload });

  return {
    list: async (ctx: TenantContext, rawQuery: TListDebtsQuery): Promise<Page<TDebtDto>> => {
      requirePermission(ctx, "debts:read:all");
      const query = parseInput(ZListDebtsQuery, rawQuery);
      const where = debtsWhere(ctx.tenantId, query);
      const primary = debtsOrder(query);
      const [rows, total] = await db.withTenant(ctx.tenantId, (tx) =>
        Promise.all([
          tx.debt.findMany({
            where,
            select: debtSelect,
            orderBy: [primary, { id: query.order }],
            skip: query.offset,
            take: query.limit,
          }),
          tx.debt.count({ where }),
        ]),
      );
      return { items: rows.map(toDebtDto), total, limit: query.limit, offset: query.offset };
    },

    get: async (ctx: TenantContext, id: string): Promise<TDebtDetailDto> => {
      requirePermission(ctx, "debts:read:all");
      return db.withTenant(ctx.tenantId, (tx) => detailOrThrow(tx, ctx.tenantId, id));
    },

    create: async (ctx: TenantContext, raw: unknown): Promise<TDebtDetailDto> => {
      requirePermission(ctx, "debts:create:all");
      const input = parseInput(ZCreateDebtInput, raw);
      const { tenantId } = ctx;
      return db
        .withTenant(tenantId, async (tx) => {
          if (!(await isSelected(tx, tenantId, input.currency))) throw currencyNotSelected();
          const now = clock.now();
          const amount = BigInt(input.amount);
          const id = newId();
          await tx.debt.create({
            data: {
              id,
              tenantId,
              kind: input.kind,
              counterpartyId: input.counterpartyId,
              amount,
              outstanding: amount,
              currencyCode: input.currency,
              dueDate: input.dueDate === null ? null : dateOf(input.dueDate),
              description: input.description,
              status: "pending",
              createdBy: ctx.actor.userId,
              createdAt: now,
              updatedAt: now,
            },
            select: { id: true },
          });
          const detail = await detailOrThrow(tx, tenantId, id);
          await raise(tx, ctx, "DebtCreated", { debtId: id, ...toEventPayload(detail) });
          await audit(tx, ctx, "debt", id, "create", { after: toEventPayload(detail) });
          return detail;
        })
        .catch(rethrowReference);
    },

    /**
     * While nothing is settled every field may change. Once something is (partial), kind,
     * counterparty and currency are fixed (the settlements' documents carry them) and the amount
     * may not fall to what was settled. A settled or written-off debt is closed: only its due
     * date and description may change.
     */
    update: async (ctx: TenantContext, id: string, raw: unknown): Promise<TDebtDetailDto> => {
      requirePermission(ctx, "debts:update:all");
      const input = parseInput(ZUpdateDebtInput, raw);
      const { tenantId } = ctx;
      return db
        .withTenant(tenantId, async (tx) => {
          const debt = await lockDebt(tx, tenantId, id);
          if (!debt) throw debtNotFound();
          const before = await detailOrThrow(tx, tenantId, id);
          const newAmount = input.amount === undefined ? debt.amount : BigInt(input.amount);
          const changes = {
            kind: input.kind !== undefined && input.kind !== debt.kind,
            counterparty: input.counterpartyId !== undefined && input.counterpartyId !== debt.counterpartyId,
            currency: input.currency !== undefined && input.currency !== debt.currencyCode,
            amount: newAmount !== debt.amount,
          };
          if (changes.kind || changes.counterparty || changes.currency || changes.amount) {
            refuseIfClosed(debt.status);
          }
          if (debt.status === "partial" && (changes.kind || changes.counterparty || changes.currency)) {
            throw new AppError("BUSINESS_RULE", {
              reason: "finance.debt_has_settlements",
              message:
                "Part of the debt is settled: its kind, counterparty and currency can no longer change",
            });
          }
          if (changes.currency && input.currency && !(await isSelected(tx, tenantId, input.currency))) {
            throw currencyNotSelected();
          }
          const settled = debt.amount - debt.outstanding;
          if (changes.amount && newAmount <= settled) {
            const minorUnits = await minorUnitsOf(tx, debt.currencyCode);
            throw new AppError("BUSINESS_RULE", {
              reason: "finance.debt_amount_below_settled",
              message: `The amount must be more than what is already settled (${formatMoney(settled, debt.currencyCode, minorUnits, "en")}).`,
              params: { field: "amount", settled: moneyParam(settled, debt.currencyCode, minorUnits) },
            });
          }
          await tx.debt.updateMany({
            where: { tenantId, id },
            data: {
              kind: input.kind,
              counterpartyId: input.counterpartyId,
              currencyCode: input.currency,
              ...(changes.amount ? { amount: newAmount, outstanding: newAmount - settled } : {}),
              ...(input.dueDate === undefined
                ? {}
                : { dueDate: input.dueDate === null ? null : dateOf(input.dueDate) }),
              description: input.description,
              updatedAt: clock.now(),
            },
          });
          const detail = await detailOrThrow(tx, tenantId, id);
          await raise(tx, ctx, "DebtUpdated", { debtId: id, ...toEventPayload(detail) });
          await audit(tx, ctx, "debt", id, "update", diffFields(before, detail));
          return detail;
        })
        .catch(rethrowReference);
    },

    /**
     * Settles `amount` of the debt from (payable) or into (receivable) an account of the debt's
     * currency: the payment or expense, its ledger entry, the balance, the debt's outstanding
     * amount and status, and the settlement row change in one transaction, or none of them.
     * Needs debts:update:all and the right to post the money (payments:create:all for a
     * receivable, expenses:create:all for a payable).
     */
    settle: async (ctx: TenantContext, id: string, raw: unknown): Promise<TDebtSettlementResult> => {
      requirePermission(ctx, "debts:update:all");
      const input = parseInput(ZSettleDebtInput, raw);
      const amount = BigInt(input.amount);
      const { tenantId } = ctx;
      return db
        .withTenant(tenantId, async (tx) => {
          // Concurrent settlements of this debt queue here; each then sees the outstanding amount
          // the previous one committed, so together they can never settle more than is owed.
          const debt = await lockDebt(tx, tenantId, id);
          if (!debt) throw debtNotFound();
          const receivable = debt.kind === "receivable";
          requirePermission(ctx, receivable ? "payments:create:all" : "expenses:create:all");
          refuseIfClosed(debt.status);
          if (amount > debt.outstanding) {
            const minorUnits = await minorUnitsOf(tx, debt.currencyCode);
            throw new AppError("BUSINESS_RULE", {
              reason: "finance.debt_over_settlement",
              message: `The amount is more than what is outstanding on the debt (${formatMoney(debt.outstanding, debt.currencyCode, minorUnits, "en")}).`,
              params: {
                field: "amount",
                outstanding: moneyParam(debt.outstanding, debt.currencyCode, minorUnits),
                currency: debt.currencyCode,
              },
            });
          }
          const currency = (await accountCurrencies(tx, tenantId, [input.accountId])).get(input.accountId);
          if (currency === undefined) {
            throw fieldError(
              "accountId",
              "finance.unknown_account",
              "is not an account of this organization",
            );
          }
          if (currency !== debt.currencyCode) {
            throw fieldError(
              "accountId",
              "finance.debt_currency_mismatch",
              `must be an account in ${debt.currencyCode}, the debt's currency (it is in ${currency})`,
            );
          }
          const document = await (receivable ? payments : expenses).createIn(tx, ctx, {
            accountId: input.accountId,
            amount: input.amount,
            currency: undefined,
            date: input.date,
            counterpartyId: debt.counterpartyId,
            categoryId: input.categoryId,
            comment: input.comment,
          });
          const now = clock.now();
          const outstanding = debt.outstanding - amount;
          await tx.debt.updateMany({
            where: { tenantId, id },
            data: { outstanding, status: outstanding === 0n ? "settled" : "partial", updatedAt: now },
          });
          const settlementId = newId();
          await tx.debtSettlement.create({
            data: {
              id: settlementId,
              tenantId,
              debtId: id,
              ...(receivable ? { paymentId: document.id } : { expenseId: document.id }),
              amount,
              date: dateOf(input.date),
              createdBy: ctx.actor.userId,
              createdAt: now,
            },
            select: { id: true },
          });
          const detail = await detailOrThrow(tx, tenantId, id);
          const settlement = detail.settlements.find((candidate) => candidate.id === settlementId);
          if (!settlement) throw new Error("settlement vanished within its transaction");
          await audit(tx, ctx, "debt", id, "settle", { after: { settlementId, amount: input.amount } });
          await raise(tx, ctx, "DebtSettled", {
            debtId: id,
            settlementId,
            amount: input.amount,
            currency: debt.currencyCode,
            accountId: input.accountId,
            ...(receivable ? { paymentId: document.id } : { expenseId: document.id }),
            outstanding: detail.outstanding,
            status: detail.status,
          });
          return { debt: detail, settlement };
        })
        .catch(rethrowDocumentReference);
    },

    /**
     * Undoes one settlement: its payment or expense (and ledger entry) is deleted, the balance moved
     * back, and the amount is outstanding again (status partial, or pending when nothing remains
     * settled). Refused on a written-off debt. Needs debts:update:all and payments:delete:all
     * (receivable) or expenses:delete:all (payable).
     */
    reverseSettlement: async (
      ctx: TenantContext,
      id: string,
      settlementId: string,
    ): Promise<TDebtDetailDto> => {
      requirePermission(ctx, "debts:update:all");
      const { tenantId } = ctx;
      return db.withTenant(tenantId, async (tx) => {
        const debt = await lockDebt(tx, tenantId, id);
        if (!debt) throw debtNotFound();
        const receivable = debt.kind === "receivable";
        requirePermission(ctx, receivable ? "payments:delete:all" : "expenses:delete:all");
        const settlement = await tx.debtSettlement.findFirst({
          where: { tenantId, debtId: id, id: settlementId },
          select: { amount: true, paymentId: true, expenseId: true },
        });
        if (!settlement) throw notFound("finance.debt_settlement_not_found", "Settlement not found");
        if (debt.status === "written_off") throw writtenOff();
        const documentId = settlement.paymentId ?? settlement.expenseId;
        if (!documentId) throw new Error(`settlement ${settlementId} has no document`);
        await tx.debtSettlement.deleteMany({ where: { tenantId, id: settlementId } });
        // Moves the money back; refused (and everything rolled back) if it was already spent.
        await (receivable ? payments : expenses).deleteIn(tx, ctx, documentId);
        const outstanding = debt.outstanding + settlement.amount;
        await tx.debt.updateMany({
          where: { tenantId, id },
          data: {
            outstanding,
            status: outstanding === debt.amount ? "pending" : "partial",
            updatedAt: clock.now(),
          },
        });
        const detail = await detailOrThrow(tx, tenantId, id);
        await audit(tx, ctx, "debt", id, "reverse_settlement", { before: { settlementId, ...settlement } });
        await raise(tx, ctx, "DebtSettlementReversed", {
          debtId: id,
          settlementId,
          amount: settlement.amount.toString(),
          outstanding: detail.outstanding,
          status: detail.status,
        });
        return detail;
      });
    },

    /** What is outstanding will not be collected (or paid): recorded with who, when and why. */
    writeOff: async (ctx: TenantContext, id: string, raw: unknown): Promise<TDebtDetailDto> => {
      requirePermission(ctx, "debts:update:all");
      const input = parseInput(ZWriteOffDebtInput, raw);
      const { tenantId } = ctx;
      return db.withTenant(tenantId, async (tx) => {
        const debt = await lockDebt(tx, tenantId, id);
        if (!debt) throw debtNotFound();
        refuseIfClosed(debt.status);
        const now = clock.now();
        await tx.debt.updateMany({
          where: { tenantId, id },
          data: {
            status: "written_off",
            outstanding: 0n,
            writtenOffAmount: debt.outstanding,
            writtenOffAt: now,
            writtenOffBy: ctx.actor.userId,
            writeOffReason: input.reason,
            updatedAt: now,
          },
        });
        const detail = await detailOrThrow(tx, tenantId, id);
        await audit(tx, ctx, "debt", id, "write_off", {
          after: { amount: debt.outstanding, reason: input.reason },
        });
        await raise(tx, ctx, "DebtWrittenOff", {
          debtId: id,
          amount: debt.outstanding.toString(),
          currency: debt.currencyCode,
          by: ctx.actor.userId,
          reason: input.reason,
        });
        return detail;
      });
    },

    /** Only a pending debt (nothing settled, not written off): a mistaken entry. */
    delete: async (ctx: TenantContext, id: string): Promise<void> => {
      requirePermission(ctx, "debts:delete:all");
      const { tenantId } = ctx;
      await db.withTenant(tenantId, async (tx) => {
        const debt = await lockDebt(tx, tenantId, id);
        if (!debt) throw debtNotFound();
        if (debt.status !== "pending") {
          throw new AppError("CONFLICT", {
            reason: "finance.debt_not_deletable",
            message: "Only a debt nothing was settled on and that was not written off can be deleted",
          });
        }
        await tx.debt.deleteMany({ where: { tenantId, id } });
        await raise(tx, ctx, "DebtDeleted", { debtId: id });
        await audit(tx, ctx, "debt", id, "delete", { before: debt });
      });
    },
  };
};

/** A settlement's unknown category is the settlement's `categoryId`. */
const rethrowDocumentReference = (error: unknown): never => {
  const constraint = violatedForeignKey(error);
  if (constraint?.includes("category")) {
    throw fieldError("categoryId", "finance.unknown_category", "is not a category of this organization");
  }
  if (constraint?.includes("account")) {
    throw fieldError("accountId", "finance.unknown_account", "is not an account of this organization");
  }
  throw error;
};

const toEventPayload = ({ settlements: _settlements, id: _id, ...debt }: TDebtDetailDto) => debt;

export type DebtsService = ReturnType<typeof createDebtsService>;
