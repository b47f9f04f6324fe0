import type { Db, Outbox, Tx } from "@hisob/db";
import {
  applyRate,
  type Clock,
  newId,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import { dateOf } from "../dates";
import { fieldError } from "../finance-errors";
import { accountCurrencies, ledgerRepository, moveBalances } from "../ledger/ledger";
import type { TTransactionDto } from "../ledger/ledger.schema";
import { ZExchangeInput, ZTransferInput } from "./transfers.schema";

const unknownAccount = (field: string) =>
  fieldError(field, "finance.unknown_account", "is not an account of this organization");

/** Both accounts' currencies; either unknown → a field error naming it. */
const currenciesOf = async (tx: Tx, tenantId: string, fromAccountId: string, toAccountId: string) => {
  const currencies = await accountCurrencies(tx, tenantId, [fromAccountId, toAccountId]);
  const from = currencies.get(fromAccountId);
  const to = currencies.get(toAccountId);
  if (from === undefined) throw unknownAccount("fromAccountId");
  if (to === undefined) throw unknownAccount("toAccountId");
  return { from, to };
};

/** Money moved between two of the tenant's accounts: one ledger entry, both balances, one transaction. */
export const createTransfersService = (deps: { db: Db; outbox: Outbox; clock?: Clock }) => {
  const { db, outbox } = deps;
  const clock = deps.clock ?? systemClock;

  const post = async (
    ctx: TenantContext,
    tx: Tx,
    entry: {
      type: "transfer" | "exchange";
      fromAccountId: string;
      toAccountId: string;
      amount: bigint;
      destinationAmount: bigint | null;
      rate: string | null;
      date: Date;
      comment: string;
    },
  ): Promise<TTransactionDto> => {
    const now = clock.now();
    await moveBalances(
      tx,
      ctx.tenantId,
      [
        { accountId: entry.fromAccountId, delta: -entry.amount, field: "fromAccountId" },
        {
          accountId: entry.toAccountId,
          delta: entry.destinationAmount ?? entry.amount,
          field: "toAccountId",
        },
      ],
      now,
    );
    const id = newId();
    await tx.financeTransaction.create({
      data: {
        id,
        tenantId: ctx.tenantId,
        type: entry.type,
        amount: entry.amount,
        destinationAmount: entry.destinationAmount,
        exchangeRate: entry.rate,
        date: entry.date,
        originAccountId: entry.fromAccountId,
        destinationAccountId: entry.toAccountId,
        comment: entry.comment,
        createdBy: ctx.actor.userId,
        createdAt: now,
      },
      select: { id: true },
    });
    const dto = await ledgerRepository.find(tx, ctx.tenantId, id);
    if (!dto) throw new Error("posted transaction vanished");
    await outbox.raise(tx, {
      type: entry.type === "transfer" ? "MoneyTransferred" : "MoneyExchanged",
      tenantId: ctx.tenantId,
      payload: dto,
    });
    return dto;
  };

  return {
    transfer: async (ctx: TenantContext, raw: unknown): Promise<TTransactionDto> => {
      requirePermission(ctx, "transfers:create:all");
      const input = parseInput(ZTransferInput, raw);
      return db.withTenant(ctx.tenantId, async (tx) => {
        const currency = await currenciesOf(tx, ctx.tenantId, input.fromAccountId, input.toAccountId);
        if (currency.from !== currency.to) {
          throw fieldError(
            "toAccountId",
            "finance.transfer_currency_mismatch",
            `must be an account in ${currency.from}, like the origin (use an exchange between currencies)`,
          );
        }
        return post(ctx, tx, {
          type: "transfer",
          ...input,
          amount: BigInt(input.amount),
          date: dateOf(input.date),
          destinationAmount: null,
          rate: null,
        });
      });
    },

    exchange: async (ctx: TenantContext, raw: unknown): Promise<TTransactionDto> => {
      requirePermission(ctx, "exchanges:create:all");
      const input = parseInput(ZExchangeInput, raw);
      let destinationAmount: bigint;
      try {
        destinationAmount = applyRate(BigInt(input.amount), input.rate);
      } catch {
        throw fieldError(
          "amount",
          "finance.exchange_out_of_range",
          "times rate is beyond what an amount can hold",
        );
      }
      if (destinationAmount <= 0n) {
        throw fieldError("amount", "finance.exchange_too_small", "times rate rounds down to zero");
      }
      return db.withTenant(ctx.tenantId, async (tx) => {
        const currency = await currenciesOf(tx, ctx.tenantId, input.fromAccountId, input.toAccountId);
        if (currency.from === currency.to) {
          throw fieldError(
            "toAccountId",
            "finance.exchange_same_currency",
            `must be in another currency than ${currency.from} (use a transfer within one currency)`,
          );
        }
        return post(ctx, tx, {
          type: "exchange",
          ...input,
          amount: BigInt(input.amount),
          date: dateOf(input.date),
          destinationAmount,
          rate: input.rate,
        });
      });
    },
  };
};

export type TransfersService = ReturnType<typeof createTransfersService>;
