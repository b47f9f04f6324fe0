import { createRecordReads } from "@hisob/crud";
import { audit, diffFields, idempotent } from "@hisob/db";
import { formatMoney } from "@hisob/i18n";
import {
  AppError,
  moneyParam,
  newId,
  type Page,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import { dateOf } from "@hisob/kernel/schema";
import { assertPeriodOpen, prismaSql, todayOf } from "../periods/closed-period";
import { readDebtHistory } from "./debt-history";
import { createDebtSettlementsService } from "./debt-settlements.service";
import { debtRecord, debtsRepository as repository } from "./debts.repository";
import {
  currencyNotSelected,
  type DebtsDeps,
  debtEvents,
  debtNotFound,
  debtDetail as detailOrThrow,
  refuseIfClosed,
  rethrowReference,
  toEventPayload,
} from "./debts.rules";
import {
  type TCreateDebtInput,
  type TDebtDetailDto,
  type TDebtDto,
  type TDebtHistoryEntryDto,
  type TListDebtsQuery,
  type TUpdateDebtInput,
  ZCreateDebtInput,
  ZListDebtsQuery,
  ZUpdateDebtInput,
} from "./debts.schema";

/**
 * Debts owed to the tenant (receivable) or by it (payable): the record's verbs here, settling,
 * reversing and writing off in debt-settlements.service. Every change that depends on the
 * outstanding amount first locks the debt's row (SELECT … FOR UPDATE), so concurrent settlements,
 * write-offs and edits of one debt queue and each sees what the previous one committed.
 */
export const createDebtsService = (deps: DebtsDeps) => {
  const { db, outbox } = deps;
  const clock = deps.clock ?? systemClock;

  const raise = debtEvents(outbox);
  const records = createRecordReads(debtRecord, deps);

  return {
    /** The list's own query (named filters, one sort field) parsed here, then the building block's list. */
    list: async (ctx: TenantContext, rawQuery: TListDebtsQuery): Promise<Page<TDebtDto>> => {
      requirePermission(ctx, "debts:read:all");
      return records.list(ctx, parseInput(ZListDebtsQuery, rawQuery));
    },

    get: async (ctx: TenantContext, id: string): Promise<TDebtDetailDto> => {
      requirePermission(ctx, "debts:read:all");
      return db.withTenant(ctx.tenantId, (tx) => detailOrThrow(tx, ctx.tenantId, id));
    },

    /** Who created, settled, reversed, wrote off or edited the debt, and when (oldest first). */
    history: async (ctx: TenantContext, id: string): Promise<TDebtHistoryEntryDto[]> => {
      requirePermission(ctx, "debts:read:all");
      return db.withTenant(ctx.tenantId, async (tx) => {
        if (!(await repository.findDetail(tx, ctx.tenantId, id))) throw debtNotFound();
        return readDebtHistory(tx, ctx.tenantId, id);
      });
    },

    create: async (ctx: TenantContext, raw: TCreateDebtInput): Promise<TDebtDetailDto> => {
      requirePermission(ctx, "debts:create:all");
      const input = parseInput(ZCreateDebtInput, raw);
      const { tenantId } = ctx;
      return db
        .withTenant(tenantId, (tx) =>
          idempotent(tx, ctx, "debts.create", input, async () => {
            // A debt is recorded on the day it is entered.
            await assertPeriodOpen(prismaSql(tx), tenantId, [{ date: todayOf(clock.now()), field: null }]);
            if (!(await repository.currencySelected(tx, tenantId, input.currency)))
              throw currencyNotSelected();
            const now = clock.now();
            const amount = BigInt(input.amount);
            const id = newId();
            await repository.insert(tx, {
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
            });
            const detail = await detailOrThrow(tx, tenantId, id);
            await raise(tx, ctx, "DebtCreated", { debtId: id, ...toEventPayload(detail) });
            await audit(tx, ctx, "debt", id, "create", { after: toEventPayload(detail) });
            return detail;
          }),
        )
        .catch(rethrowReference);
    },

    /**
     * While nothing is settled every field may change. Once something is (partial), kind,
     * counterparty and currency are fixed (the settlements' documents carry them) and the amount
     * may not fall to what was settled. A settled or written-off debt is closed: only its due
     * date and description may change.
     */
    update: async (ctx: TenantContext, id: string, raw: TUpdateDebtInput): Promise<TDebtDetailDto> => {
      requirePermission(ctx, "debts:update:all");
      const input = parseInput(ZUpdateDebtInput, raw);
      const { tenantId } = ctx;
      return db
        .withTenant(tenantId, async (tx) => {
          const debt = await repository.lock(tx, tenantId, id);
          if (!debt) throw debtNotFound();
          await assertPeriodOpen(prismaSql(tx), tenantId, [{ date: debt.createdAt, field: null }]);
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
          if (
            changes.currency &&
            input.currency &&
            !(await repository.currencySelected(tx, tenantId, input.currency))
          ) {
            throw currencyNotSelected();
          }
          const settled = debt.amount - debt.outstanding;
          if (changes.amount && newAmount <= settled) {
            const minorUnits = await repository.minorUnitsOf(tx, debt.currencyCode);
            throw new AppError("BUSINESS_RULE", {
              reason: "finance.debt_amount_below_settled",
              message: `The amount must be more than what is already settled (${formatMoney(settled, debt.currencyCode, minorUnits, "en")}).`,
              params: { field: "amount", settled: moneyParam(settled, debt.currencyCode, minorUnits) },
            });
          }
          await repository.update(tx, tenantId, id, {
            kind: input.kind,
            counterpartyId: input.counterpartyId,
            currencyCode: input.currency,
            ...(changes.amount ? { amount: newAmount, outstanding: newAmount - settled } : {}),
            ...(input.dueDate === undefined
              ? {}
              : { dueDate: input.dueDate === null ? null : dateOf(input.dueDate) }),
            description: input.description,
            updatedAt: clock.now(),
          });
          const detail = await detailOrThrow(tx, tenantId, id);
          await raise(tx, ctx, "DebtUpdated", { debtId: id, ...toEventPayload(detail) });
          await audit(tx, ctx, "debt", id, "update", diffFields(before, detail));
          return detail;
        })
        .catch(rethrowReference);
    },

    /** Only a pending debt (nothing settled, not written off): a mistaken entry. */
    delete: async (ctx: TenantContext, id: string): Promise<void> => {
      requirePermission(ctx, "debts:delete:all");
      const { tenantId } = ctx;
      await db.withTenant(tenantId, async (tx) => {
        const debt = await repository.lock(tx, tenantId, id);
        if (!debt) throw debtNotFound();
        await assertPeriodOpen(prismaSql(tx), tenantId, [{ date: debt.createdAt, field: null }]);
        if (debt.status !== "pending") {
          throw new AppError("CONFLICT", {
            reason: "finance.debt_not_deletable",
            message: "Only a debt nothing was settled on and that was not written off can be deleted",
          });
        }
        await repository.delete(tx, tenantId, id);
        await raise(tx, ctx, "DebtDeleted", { debtId: id });
        await audit(tx, ctx, "debt", id, "delete", { before: debt });
      });
    },

    ...createDebtSettlementsService(deps),
  };
};

export type DebtsService = ReturnType<typeof createDebtsService>;
