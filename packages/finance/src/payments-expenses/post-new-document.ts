import type { Outbox } from "@hisob/db";
import { type Clock, newId, type TenantContext } from "@hisob/kernel";
import type { z } from "zod";
import { type DocumentPosting, type PostingTx, postDocument } from "../ledger/post-document";
import type { PaymentOrExpenseKind } from "./payments-expenses.kind";
import type { TDocumentDto, ZCreateDocumentInput } from "./payments-expenses.schema";

/** What posting a new payment or expense writes, whichever transaction it goes through. */
export const documentPosting = (
  kind: PaymentOrExpenseKind,
  ctx: TenantContext,
  input: z.output<typeof ZCreateDocumentInput>,
  posted: { id: string; transactionId: string; now: Date; currency: string | undefined },
): DocumentPosting => {
  const amount = BigInt(input.amount);
  return {
    tenantId: ctx.tenantId,
    table: kind.resource,
    transactionType: kind.transactionType,
    delta: kind.direction * amount,
    accountId: input.accountId,
    currency: posted.currency,
    side: kind.direction === 1n ? "destination" : "origin",
    transactionId: posted.transactionId,
    documentId: posted.id,
    amount,
    date: input.date,
    counterpartyId: input.counterpartyId,
    categoryId: input.categoryId,
    comment: input.comment,
    createdBy: ctx.actor.userId,
    now: posted.now,
  };
};

/**
 * A new payment or expense, whichever transaction it goes through: one statement posts the
 * balance, the ledger entry, the document, the outbox event and the audit entry (post-document.ts).
 * A stated currency is checked in that statement too (the UPDATE moves only an account that holds
 * it), so a posting is its scope and one statement, one round trip. `payments.create` posts in a
 * driver transaction; `createIn` in a Prisma transaction the caller holds (a debt settlement).
 */
export const postNewDocument = async (
  on: PostingTx,
  deps: { outbox: Outbox; clock: Clock; kind: PaymentOrExpenseKind },
  ctx: TenantContext,
  input: z.output<typeof ZCreateDocumentInput>,
): Promise<TDocumentDto> => {
  const { kind, outbox } = deps;
  const { tenantId } = ctx;
  const now = deps.clock.now();
  const transactionId = newId();
  const id = newId();
  // Everything but the account's currency, which the statement adds to the event and the entry.
  const facts = {
    accountId: input.accountId,
    amount: input.amount,
    date: input.date,
    counterpartyId: input.counterpartyId,
    categoryId: input.categoryId,
    comment: input.comment,
    transactionId,
    createdBy: ctx.actor.userId,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  const currency = await postDocument(
    on,
    outbox,
    documentPosting(kind, ctx, input, { id, transactionId, now, currency: input.currency }),
    {
      event: { type: kind.events.created, tenantId, payload: { [`${kind.name}Id`]: id, ...facts } },
      audit: { who: ctx, entity: kind.name, after: { id, ...facts } },
    },
  );
  const { accountId, ...rest } = facts;
  return { id, accountId, currency, ...rest };
};
