import { type Db, idempotentRaw, type Outbox } from "@hisob/db";
import { type Clock, parseInput, requirePermission, systemClock, type TenantContext } from "@hisob/kernel";
import type { TTransactionDto } from "../ledger/ledger.schema";
import { createCorrectionsService } from "./corrections.service";
import { createExchangesService } from "./exchanges.service";
import { postTransfer } from "./post-transfer";
import { rethrowCounterparty } from "./transfers.rules";
import { type TTransferInput, ZTransferInput } from "./transfers.schema";

/**
 * Money moved between two of the tenant's accounts: one ledger entry, both balances, one transaction.
 * Transfers (this file), exchanges (exchanges.service.ts) and the corrections of both
 * (corrections.service.ts), as one service.
 */
export const createTransfersService = (deps: { db: Db; outbox: Outbox; clock?: Clock }) => {
  const shared = { db: deps.db, outbox: deps.outbox, clock: deps.clock ?? systemClock };
  const { db } = shared;

  return {
    transfer: async (ctx: TenantContext, raw: TTransferInput): Promise<TTransactionDto> => {
      requirePermission(ctx, "transfers:create:all");
      const input = parseInput(ZTransferInput, raw);
      // A driver transaction: the balances, the entry, its event and its audit entry are one statement.
      return db.rawTx
        .withTenant(ctx.tenantId, (tx) =>
          idempotentRaw(tx, ctx, "transfers.create", input, () => postTransfer(tx, shared, ctx, input)),
        )
        .catch(rethrowCounterparty);
    },
    ...createExchangesService(shared),
    ...createCorrectionsService(shared),
  };
};

export type TransfersService = ReturnType<typeof createTransfersService>;
