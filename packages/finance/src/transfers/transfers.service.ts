import type { Db, Outbox } from "@hisob/db";
import { type Clock, parseInput, requirePermission, systemClock, type TenantContext } from "@hisob/kernel";
import { dateOf } from "../dates";
import { fieldError } from "../finance-errors";
import type { TTransactionDto } from "../ledger/ledger.schema";
import { createCorrectionsService } from "./corrections.service";
import { createExchangesService } from "./exchanges.service";
import { checkCounterparty, currenciesOf, postingOf, rethrowCounterparty } from "./transfers.rules";
import { type TTransferInput, ZTransferInput } from "./transfers.schema";

/**
 * Money moved between two of the tenant's accounts: one ledger entry, both balances, one transaction.
 * Transfers (this file), exchanges (exchanges.service.ts) and the corrections of both
 * (corrections.service.ts), as one service.
 */
export const createTransfersService = (deps: { db: Db; outbox: Outbox; clock?: Clock }) => {
  const shared = { db: deps.db, outbox: deps.outbox, clock: deps.clock ?? systemClock };
  const { db } = shared;
  const post = postingOf(shared);

  return {
    transfer: async (ctx: TenantContext, raw: TTransferInput): Promise<TTransactionDto> => {
      requirePermission(ctx, "transfers:create:all");
      const input = parseInput(ZTransferInput, raw);
      try {
        return await db.withTenant(ctx.tenantId, async (tx) => {
          const currency = await currenciesOf(tx, ctx.tenantId, input.fromAccountId, input.toAccountId);
          if (currency.from.code !== currency.to.code) {
            throw fieldError(
              "toAccountId",
              "finance.transfer_currency_mismatch",
              `must be an account in ${currency.from.code}, like the origin (use an exchange between currencies)`,
            );
          }
          await checkCounterparty(tx, ctx.tenantId, input.counterpartyId);
          return post(ctx, tx, {
            type: "transfer",
            ...input,
            amount: BigInt(input.amount),
            date: dateOf(input.date),
            destinationAmount: null,
            rate: null,
          });
        });
      } catch (error) {
        return rethrowCounterparty(error);
      }
    },
    ...createExchangesService(shared),
    ...createCorrectionsService(shared),
  };
};

export type TransfersService = ReturnType<typeof createTransfersService>;
