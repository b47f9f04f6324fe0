import { audit, type Db, diffFields, idempotentRaw, type Outbox, type Tx } from "@hisob/db";
import {
  AppError,
  type Clock,
  type Page,
  parseInput,
  requirePermission,
  requireScope,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import { dateOf } from "@hisob/kernel/schema";
import type { z } from "zod";
import { fieldError, notFound, rethrowUnknownReference } from "../finance-errors";
import { accountCurrencies, type Move, moveBalances } from "../ledger/ledger";
import { assertPeriodOpen, prismaSql } from "../periods/closed-period";
import { EXPENSE, PAYMENT, type PaymentOrExpenseKind } from "./payments-expenses.kind";
import { type LockedDocument, paymentsExpensesRepository } from "./payments-expenses.repository";
import {
  type TCreateDocumentInput,
  type TDocumentDto,
  type TDocumentListItem,
  type TDocumentTotals,
  type TDocumentTotalsQuery,
  type TListDocumentsQuery,
  type TUpdateDocumentInput,
  ZCreateDocumentInput,
  ZDocumentTotalsQuery,
  ZListDocumentsQuery,
  ZUpdateDocumentInput,
} from "./payments-expenses.schema";
import { postNewDocument } from "./post-new-document";

// The kinds live in their own file so post-new-document can name them without importing this one.
export { EXPENSE, PAYMENT, type PaymentOrExpenseKind };

/** An unknown account, counterparty or category is caught by its tenant-scoped foreign key: name the field. */
const rethrowDocumentReference = rethrowUnknownReference("counterparty", "category", "account");

export const createPaymentsExpensesService = (
  kind: PaymentOrExpenseKind,
  deps: { db: Db; outbox: Outbox; clock?: Clock },
) => {
  const { db, outbox } = deps;
  const clock = deps.clock ?? systemClock;
  const repository = paymentsExpensesRepository(kind.resource);
  const documentNotFound = () =>
    notFound(
      `finance.${kind.name}_not_found`,
      `${kind.name === "payment" ? "Payment" : "Expense"} not found`,
    );
  const settlesDebt = () =>
    new AppError("CONFLICT", {
      reason: "finance.document_settles_debt",
      message: `The ${kind.name} settles a debt: reverse the settlement on the debt to delete it or change its amount, account or counterparty`,
    });
  /** Which side of the ledger entry the document's account is on. */
  const accountSide = (accountId: string) =>
    kind.direction === 1n
      ? { originAccountId: null, destinationAccountId: accountId }
      : { originAccountId: accountId, destinationAccountId: null };
  const eventPayload = ({ id, ...rest }: TDocumentDto) => ({ [`${kind.name}Id`]: id, ...rest });

  /** Whose documents the caller may read: null for all, its own id with only `:own`. */
  const readableOwner = (ctx: TenantContext): string | null =>
    requireScope(ctx, kind.resource, "read") === "own" ? ctx.actor.userId : null;

  /** A stated currency must be the account's; an unknown account is named here too. */
  const checkCurrency = async (tx: Tx, tenantId: string, accountId: string, currency: string | undefined) => {
    if (currency === undefined) return;
    const actual = (await accountCurrencies(tx, tenantId, [accountId])).get(accountId);
    if (actual === undefined) {
      throw fieldError("accountId", "finance.unknown_account", "is not an account of this organization");
    }
    if (actual !== currency) {
      throw fieldError("currency", "finance.currency_mismatch", `must be the account's currency ${actual}`);
    }
  };

  /** The posting of `create` in a Prisma transaction the caller holds (see `createIn` below). */
  const createIn = (tx: Tx, ctx: TenantContext, input: z.output<typeof ZCreateDocumentInput>) =>
    postNewDocument({ prisma: tx }, { outbox, clock, kind }, ctx, input);

  return {
    list: async (ctx: TenantContext, rawQuery: TListDocumentsQuery): Promise<Page<TDocumentListItem>> => {
      const owner = readableOwner(ctx);
      const query = parseInput(ZListDocumentsQuery, rawQuery);
      const page = await db.withTenant(ctx.tenantId, (tx) => repository.list(tx, ctx.tenantId, query, owner));
      return { ...page, limit: query.limit, offset: query.offset };
    },

    /** The list's totals over every matching document (the same filter and the same scope as `list`). */
    totals: async (ctx: TenantContext, rawQuery: TDocumentTotalsQuery): Promise<TDocumentTotals> => {
      const owner = readableOwner(ctx);
      const query = parseInput(ZDocumentTotalsQuery, rawQuery);
      return db.withTenant(ctx.tenantId, (tx) => repository.totals(tx, ctx.tenantId, query, owner));
    },

    get: async (ctx: TenantContext, id: string): Promise<TDocumentDto> => {
      const owner = readableOwner(ctx);
      const dto = await db.withTenant(ctx.tenantId, (tx) => repository.findById(tx, ctx.tenantId, id, owner));
      if (!dto) throw documentNotFound();
      return dto;
    },

    /** Inserts the document and its ledger entry and moves the balance, all in one transaction. */
    create: async (ctx: TenantContext, raw: TCreateDocumentInput): Promise<TDocumentDto> => {
      requirePermission(ctx, `${kind.resource}:create:all`);
      const input = parseInput(ZCreateDocumentInput, raw);
      // A driver transaction: the posting, its event and its audit entry are one statement.
      return db.rawTx
        .withTenant(ctx.tenantId, (tx) =>
          idempotentRaw(tx, ctx, `${kind.resource}.create`, input, () =>
            // With an idempotency key, its answer is stored after the posting, in the same transaction.
            postNewDocument({ driver: tx, commit: !ctx.idempotencyKey }, { outbox, clock, kind }, ctx, input),
          ),
        )
        .catch(rethrowDocumentReference);
    },

    /**
     * The same posting inside a transaction the caller already holds (e.g. a debt settlement, which
     * must change the debt and post the money atomically). The caller checks permissions and
     * maps foreign-key errors with the document's field names (see `rethrowDocumentReference`).
     */
    createIn,

    /** Changes the document and its entry; balances follow (old amount out, new amount in) in the same transaction. */
    update: async (ctx: TenantContext, id: string, raw: TUpdateDocumentInput): Promise<TDocumentDto> => {
      requirePermission(ctx, `${kind.resource}:update:all`);
      const input = parseInput(ZUpdateDocumentInput, raw);
      const { tenantId } = ctx;
      return db
        .withTenant(tenantId, async (tx) => {
          const old = await repository.lock(tx, tenantId, id);
          if (!old) throw documentNotFound();
          // Neither the document's day nor the one it moves to may be in a closed period.
          await assertPeriodOpen(prismaSql(tx), tenantId, [
            ...(input.date === undefined ? [] : [{ date: input.date, field: "date" as const }]),
            { date: old.date, field: null },
          ]);
          const before = await repository.findById(tx, tenantId, id);
          const accountId = input.accountId ?? old.accountId;
          const amount = input.amount === undefined ? old.amount : BigInt(input.amount);
          // A settlement's money, account and counterparty are the debt's: change them through the debt.
          if (
            old.settlesDebt &&
            (amount !== old.amount ||
              accountId !== old.accountId ||
              (input.counterpartyId !== undefined && input.counterpartyId !== old.counterpartyId))
          ) {
            throw settlesDebt();
          }
          await checkCurrency(tx, tenantId, accountId, input.currency);
          const moves: Move[] =
            accountId === old.accountId
              ? [{ accountId, delta: kind.direction * (amount - old.amount), field: "amount" }]
              : [
                  { accountId: old.accountId, delta: -kind.direction * old.amount, field: "accountId" },
                  { accountId, delta: kind.direction * amount, field: "accountId" },
                ];
          const now = clock.now();
          await moveBalances(
            tx,
            tenantId,
            moves.filter((move) => move.delta !== 0n),
            now,
          );
          await tx.financeTransaction.updateMany({
            where: { tenantId, id: old.transactionId },
            data: {
              amount,
              ...(input.date === undefined ? {} : { date: dateOf(input.date) }),
              ...(input.comment === undefined ? {} : { comment: input.comment }),
              ...accountSide(accountId),
            },
          });
          await repository.update(tx, tenantId, id, {
            accountId,
            amount,
            date: input.date,
            comment: input.comment,
            counterpartyId: input.counterpartyId,
            categoryId: input.categoryId,
            updatedAt: now,
          });
          const dto = await repository.findById(tx, tenantId, id);
          if (!dto) throw documentNotFound();
          await outbox.raise(tx, { type: kind.events.updated, tenantId, payload: eventPayload(dto) });
          const change = diffFields(before, dto);
          // An amount is minor units of a currency: the entry names it even when only the amount changed.
          if (change.after && "amount" in change.after && !("currency" in change.after)) {
            change.after.currency = dto.currency;
          }
          await audit(tx, ctx, kind.name, id, "update", change);
          return dto;
        })
        .catch(rethrowDocumentReference);
    },

    /** Removes the document and its entry and takes its amount back off the balance. */
    delete: async (ctx: TenantContext, id: string): Promise<void> => {
      requirePermission(ctx, `${kind.resource}:delete:all`);
      const { tenantId } = ctx;
      await db.withTenant(tenantId, async (tx) => {
        const old = await repository.lock(tx, tenantId, id);
        if (!old) throw documentNotFound();
        // The debt would still count it as paid: a settlement is reversed through its debt.
        if (old.settlesDebt) throw settlesDebt();
        await assertPeriodOpen(prismaSql(tx), tenantId, [{ date: old.date, field: null }]);
        await remove(tx, tenantId, id, old);
        await audit(tx, ctx, kind.name, id, "delete", { before: old });
      });
    },

    /**
     * The same removal inside a transaction the caller holds (reversing a debt settlement, which
     * deletes its settlement row first). The caller checks permissions. Returns false when there
     * is no such document.
     */
    deleteIn: async (tx: Tx, ctx: TenantContext, id: string): Promise<boolean> => {
      const old = await repository.lock(tx, ctx.tenantId, id);
      if (!old) return false;
      await assertPeriodOpen(prismaSql(tx), ctx.tenantId, [{ date: old.date, field: null }]);
      await remove(tx, ctx.tenantId, id, old);
      await audit(tx, ctx, kind.name, id, "delete", { before: old });
      return true;
    },
  };

  async function remove(tx: Tx, tenantId: string, id: string, old: LockedDocument) {
    await moveBalances(
      tx,
      tenantId,
      [{ accountId: old.accountId, delta: -kind.direction * old.amount, field: "id" }],
      clock.now(),
    );
    await repository.delete(tx, tenantId, id);
    await tx.financeTransaction.deleteMany({ where: { tenantId, id: old.transactionId } });
    await outbox.raise(tx, {
      type: kind.events.deleted,
      tenantId,
      payload: { [`${kind.name}Id`]: id, transactionId: old.transactionId, accountId: old.accountId },
    });
  }
};

export type PaymentsExpensesService = ReturnType<typeof createPaymentsExpensesService>;
