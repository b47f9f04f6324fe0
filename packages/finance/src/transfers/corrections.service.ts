import { audit, diffFields, idempotent, isUniqueViolation } from "@hisob/db";
import { AppError, parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { dateOf } from "@hisob/kernel/schema";
import { ledgerRepository } from "../ledger/ledger";
import type { TTransactionDto } from "../ledger/ledger.schema";
import { assertPeriodOpen, prismaSql } from "../periods/closed-period";
import { shortestRate } from "./rates";
import { type MovementKind, transfersRepository as repository } from "./transfers.repository";
import {
  alreadyReversed,
  checkCounterparty,
  lockMovement,
  movementNotFound,
  postingOf,
  rethrowCounterparty,
  type TransfersDeps,
} from "./transfers.rules";
import {
  type TReverseInput,
  type TUpdateMovementInput,
  ZReverseInput,
  ZUpdateMovementInput,
} from "./transfers.schema";

/** Corrections of a posted transfer or exchange: its reversal, or a change of what moves no money. */
export const createCorrectionsService = (deps: TransfersDeps) => {
  const { db } = deps;
  const post = postingOf(deps);

  const reverse = async (
    ctx: TenantContext,
    kind: MovementKind,
    id: string,
    raw: TReverseInput,
  ): Promise<TTransactionDto> => {
    requirePermission(ctx, kind === "transfer" ? "transfers:update:all" : "exchanges:update:all");
    const input = parseInput(ZReverseInput, raw);
    try {
      return await db.withTenant(ctx.tenantId, (tx) =>
        idempotent(tx, ctx, `${kind}s.reverse`, { id, ...input }, async () => {
          const original = await lockMovement(tx, ctx.tenantId, kind, id);
          if (original.reversalOfId !== null) {
            throw new AppError("BUSINESS_RULE", {
              reason: "finance.reversal_not_reversible",
              message: "A reversal cannot be reversed; post the entry again instead",
            });
          }
          if (original.reversedById !== null) throw alreadyReversed();
          if (!original.originAccountId || !original.destinationAccountId) throw movementNotFound(kind);
          // The reversal's own day, and the day of what it reverses, must both be open.
          await assertPeriodOpen(prismaSql(tx), ctx.tenantId, [
            ...(input.date === undefined ? [] : [{ date: input.date, field: "date" as const }]),
            { date: original.date, field: null },
          ]);
          const out = BigInt(original.amount);
          const received = original.destinationAmount === null ? null : BigInt(original.destinationAmount);
          // The exact opposite: what arrived goes back out, what left comes back in.
          const reversal = await post(ctx, tx, {
            type: kind,
            fromAccountId: original.destinationAccountId,
            toAccountId: original.originAccountId,
            amount: received ?? out,
            destinationAmount: received === null ? null : out,
            rate: received === null ? null : shortestRate(received, out),
            date: dateOf(input.date ?? original.date),
            comment: original.comment,
            counterpartyId: original.counterpartyId,
            reversal: { of: original.id, reason: input.reason },
          });
          await audit(tx, ctx, kind, original.id, "reverse", {
            after: { reversalId: reversal.id, reason: input.reason },
          });
          return reversal;
        }),
      );
    } catch (error) {
      // Two reversals racing past the lock cannot both insert: the unique (tenant, reversal_of_id) says so.
      if (isUniqueViolation(error)) throw alreadyReversed();
      throw error;
    }
  };

  const update = async (
    ctx: TenantContext,
    kind: MovementKind,
    id: string,
    raw: TUpdateMovementInput,
  ): Promise<TTransactionDto> => {
    requirePermission(ctx, kind === "transfer" ? "transfers:update:all" : "exchanges:update:all");
    const input = parseInput(ZUpdateMovementInput, raw);
    try {
      return await db.withTenant(ctx.tenantId, async (tx) => {
        const before = await lockMovement(tx, ctx.tenantId, kind, id);
        // A reversal holds the original's lines as they were: a new date would value the original
        // again and leave the pair uneven in the base currency (docs/decisions/0093-general-ledger.md).
        if (input.date !== undefined && before.reversedById !== null && input.date !== before.date) {
          throw alreadyReversed();
        }
        await assertPeriodOpen(prismaSql(tx), ctx.tenantId, [
          ...(input.date === undefined ? [] : [{ date: input.date, field: "date" as const }]),
          { date: before.date, field: null },
        ]);
        await checkCounterparty(tx, ctx.tenantId, input.counterpartyId);
        await repository.updateFacts(tx, ctx.tenantId, id, {
          date: input.date === undefined ? undefined : dateOf(input.date),
          comment: input.comment,
          counterpartyId: input.counterpartyId,
        });
        const after = await ledgerRepository.find(tx, ctx.tenantId, id);
        if (!after) throw movementNotFound(kind);
        await audit(tx, ctx, kind, id, "update", diffFields(before, after));
        return after;
      });
    } catch (error) {
      return rethrowCounterparty(error);
    }
  };

  return {
    /** Posts the exact opposite of a transfer (both kept, linked), with why; once. */
    reverseTransfer: (ctx: TenantContext, id: string, raw: TReverseInput) =>
      reverse(ctx, "transfer", id, raw),
    reverseExchange: (ctx: TenantContext, id: string, raw: TReverseInput) =>
      reverse(ctx, "exchange", id, raw),
    /** Changes a transfer's date, comment or counterparty: nothing that moves money. */
    updateTransfer: (ctx: TenantContext, id: string, raw: TUpdateMovementInput) =>
      update(ctx, "transfer", id, raw),
    updateExchange: (ctx: TenantContext, id: string, raw: TUpdateMovementInput) =>
      update(ctx, "exchange", id, raw),
  };
};
