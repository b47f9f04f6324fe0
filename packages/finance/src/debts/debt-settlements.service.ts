import { audit, idempotent } from "@hisob/db";
import { formatMoney } from "@hisob/i18n";
import {
  AppError,
  moneyParam,
  newId,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import { dateOf } from "@hisob/kernel/schema";
import { fieldError, notFound } from "../finance-errors";
import { accountCurrencies } from "../ledger/ledger";
import { assertPeriodOpen, prismaSql, todayOf } from "../periods/closed-period";
import { debtsRepository as repository } from "./debts.repository";
import {
  type DebtsDeps,
  debtEvents,
  debtNotFound,
  debtDetail as detailOrThrow,
  refuseIfClosed,
  rethrowDocumentReference,
  writtenOff,
} from "./debts.rules";
import {
  type TDebtDetailDto,
  type TDebtSettlementResult,
  type TSettleDebtInput,
  type TWriteOffDebtInput,
  ZSettleDebtInput,
  ZWriteOffDebtInput,
} from "./debts.schema";

/**
 * What closes a debt, wholly or in part: settling it with money (a payment or an expense posted in
 * the same transaction), reversing a settlement, writing off what is outstanding. Each locks the
 * debt's row first (see debts.service).
 */
export const createDebtSettlementsService = (deps: DebtsDeps) => {
  const { db, outbox, payments, expenses } = deps;
  const clock = deps.clock ?? systemClock;
  const raise = debtEvents(outbox);

  return {
    /**
     * Settles `amount` of the debt from (payable) or into (receivable) an account of the debt's
     * currency: the payment or expense, its ledger entry, the balance, the debt's outstanding
     * amount and status, and the settlement row change in one transaction, or none of them.
     * Needs debts:update:all and the right to post the money (payments:create:all for a
     * receivable, expenses:create:all for a payable).
     */
    settle: async (ctx: TenantContext, id: string, raw: TSettleDebtInput): Promise<TDebtSettlementResult> => {
      requirePermission(ctx, "debts:update:all");
      const input = parseInput(ZSettleDebtInput, raw);
      const amount = BigInt(input.amount);
      const { tenantId } = ctx;
      return db
        .withTenant(tenantId, (tx) =>
          idempotent(tx, ctx, "debts.settle", { id, ...input }, async () => {
            // Concurrent settlements of this debt queue here; each then sees the outstanding amount
            // the previous one committed, so together they can never settle more than is owed.
            const debt = await repository.lock(tx, tenantId, id);
            if (!debt) throw debtNotFound();
            const receivable = debt.kind === "receivable";
            requirePermission(ctx, receivable ? "payments:create:all" : "expenses:create:all");
            refuseIfClosed(debt.status);
            if (amount > debt.outstanding) {
              const minorUnits = await repository.minorUnitsOf(tx, debt.currencyCode);
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
            // A settlement dated in a closed period is refused by the posting itself (post-document.ts).
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
            await repository.update(tx, tenantId, id, {
              outstanding,
              status: outstanding === 0n ? "settled" : "partial",
              updatedAt: now,
            });
            const settlementId = newId();
            await repository.insertSettlement(tx, {
              id: settlementId,
              tenantId,
              debtId: id,
              ...(receivable ? { paymentId: document.id } : { expenseId: document.id }),
              amount,
              date: dateOf(input.date),
              createdBy: ctx.actor.userId,
              createdAt: now,
            });
            const detail = await detailOrThrow(tx, tenantId, id);
            const settlement = detail.settlements.find((candidate) => candidate.id === settlementId);
            if (!settlement) throw new Error("settlement vanished within its transaction");
            // The date and account go along: the debt's history shows them (debt-history.ts).
            await audit(tx, ctx, "debt", id, "settle", {
              after: { settlementId, amount: input.amount, date: input.date, accountId: input.accountId },
            });
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
          }),
        )
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
      return db.withTenant(tenantId, (tx) =>
        idempotent(tx, ctx, "debts.reverse_settlement", { id, settlementId }, async () => {
          const debt = await repository.lock(tx, tenantId, id);
          if (!debt) throw debtNotFound();
          const receivable = debt.kind === "receivable";
          requirePermission(ctx, receivable ? "payments:delete:all" : "expenses:delete:all");
          const settlement = await repository.findSettlement(tx, tenantId, id, settlementId);
          if (!settlement) throw notFound("finance.debt_settlement_not_found", "Settlement not found");
          await assertPeriodOpen(prismaSql(tx), tenantId, [{ date: settlement.date, field: null }]);
          if (debt.status === "written_off") throw writtenOff();
          const documentId = settlement.paymentId ?? settlement.expenseId;
          if (!documentId) throw new Error(`settlement ${settlementId} has no document`);
          await repository.deleteSettlement(tx, tenantId, settlementId);
          // Moves the money back; refused (and everything rolled back) if it was already spent.
          await (receivable ? payments : expenses).deleteIn(tx, ctx, documentId);
          const outstanding = debt.outstanding + settlement.amount;
          await repository.update(tx, tenantId, id, {
            outstanding,
            status: outstanding === debt.amount ? "pending" : "partial",
            updatedAt: clock.now(),
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
        }),
      );
    },

    /** What is outstanding will not be collected (or paid): recorded with who, when and why. */
    writeOff: async (ctx: TenantContext, id: string, raw: TWriteOffDebtInput): Promise<TDebtDetailDto> => {
      requirePermission(ctx, "debts:update:all");
      const input = parseInput(ZWriteOffDebtInput, raw);
      const { tenantId } = ctx;
      return db.withTenant(tenantId, (tx) =>
        idempotent(tx, ctx, "debts.write_off", { id, ...input }, async () => {
          const debt = await repository.lock(tx, tenantId, id);
          if (!debt) throw debtNotFound();
          refuseIfClosed(debt.status);
          const now = clock.now();
          // A write-off is dated the day it is made.
          await assertPeriodOpen(prismaSql(tx), tenantId, [{ date: todayOf(now), field: null }]);
          await repository.update(tx, tenantId, id, {
            status: "written_off",
            outstanding: 0n,
            writtenOffAmount: debt.outstanding,
            writtenOffAt: now,
            writtenOffBy: ctx.actor.userId,
            writeOffReason: input.reason,
            updatedAt: now,
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
        }),
      );
    },
  };
};
