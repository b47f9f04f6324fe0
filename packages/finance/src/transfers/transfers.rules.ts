import { audit, type Db, type Outbox, type Tx } from "@hisob/db";
import { AppError, type Clock, newId, type TenantContext } from "@hisob/kernel";
import { fieldError, notFound, rethrowUnknownReference } from "../finance-errors";
import { ledgerRepository, moveBalances } from "../ledger/ledger";
import type { TTransactionDto } from "../ledger/ledger.schema";
import type { CurrencyDigits } from "./rates";
import { type MovementKind, transfersRepository as repository } from "./transfers.repository";

/*
 * What transfers, exchanges and their corrections share: the refusals they name and the one way an
 * entry is posted (both balances, the entry, its event and audit, in the caller's transaction).
 */

export type TransfersDeps = { db: Db; outbox: Outbox; clock: Clock };

export const unknownAccount = (field: string) =>
  fieldError(field, "finance.unknown_account", "is not an account of this organization");
const unknownCounterparty = () =>
  fieldError("counterpartyId", "finance.unknown_counterparty", "is not a counterparty of this organization");
export const movementNotFound = (kind: MovementKind) =>
  kind === "transfer"
    ? notFound("finance.transfer_not_found", "Transfer not found")
    : notFound("finance.exchange_not_found", "Exchange not found");
export const alreadyReversed = () =>
  new AppError("CONFLICT", {
    reason: "finance.already_reversed",
    message: "This entry has already been reversed",
  });

/** Both accounts' currencies with their minor digits; either unknown → a field error naming it. */
export const currenciesOf = async (tx: Tx, tenantId: string, fromAccountId: string, toAccountId: string) => {
  const byId = await repository.currenciesOf(tx, tenantId, [fromAccountId, toAccountId]);
  const from: CurrencyDigits | undefined = byId.get(fromAccountId);
  const to: CurrencyDigits | undefined = byId.get(toAccountId);
  if (from === undefined) throw unknownAccount("fromAccountId");
  if (to === undefined) throw unknownAccount("toAccountId");
  return { from, to };
};

export const checkCounterparty = async (
  tx: Tx,
  tenantId: string,
  counterpartyId: string | null | undefined,
) => {
  if (!counterpartyId) return;
  if (!(await repository.counterpartyExists(tx, tenantId, counterpartyId))) throw unknownCounterparty();
};

/** A counterparty deleted between the check and the write still fails on its foreign key: same answer. */
export const rethrowCounterparty = rethrowUnknownReference("counterparty");

/** A transfer or exchange of the tenant, locked against a concurrent reversal or edit. */
export const lockMovement = async (tx: Tx, tenantId: string, kind: MovementKind, id: string) => {
  if (!(await repository.lock(tx, tenantId, kind, id))) throw movementNotFound(kind);
  const dto = await ledgerRepository.find(tx, tenantId, id);
  if (!dto) throw movementNotFound(kind);
  return dto;
};

/** What a posting moves: out of one account, into the other (`destinationAmount` for an exchange). */
export type Posting = {
  type: MovementKind;
  fromAccountId: string;
  toAccountId: string;
  amount: bigint;
  destinationAmount: bigint | null;
  rate: string | null;
  date: Date;
  comment: string;
  counterpartyId: string | null;
  reversal?: { of: string; reason: string };
};

/** Posts one transfer or exchange entry: both balances, the entry, its event and (unless a reversal) its audit. */
export const postingOf =
  ({ outbox, clock }: Pick<TransfersDeps, "outbox" | "clock">) =>
  async (ctx: TenantContext, tx: Tx, entry: Posting): Promise<TTransactionDto> => {
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
    await repository.insert(tx, {
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
      counterpartyId: entry.counterpartyId,
      reversalOfId: entry.reversal?.of ?? null,
      reversalReason: entry.reversal?.reason ?? null,
      createdBy: ctx.actor.userId,
      createdAt: now,
    });
    const dto = await ledgerRepository.find(tx, ctx.tenantId, id);
    if (!dto) throw new Error("posted transaction vanished");
    await outbox.raise(tx, {
      type: entry.type === "transfer" ? "MoneyTransferred" : "MoneyExchanged",
      tenantId: ctx.tenantId,
      payload: dto,
    });
    if (!entry.reversal) await audit(tx, ctx, entry.type, id, "create", { after: dto });
    return dto;
  };
