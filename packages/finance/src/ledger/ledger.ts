import type { Prisma, Tx } from "@hisob/db";
import { AppError, minorToMajorString } from "@hisob/kernel";
import type { z } from "zod";
import { dateOf, toIsoDate } from "../dates";
import { fieldError, isNumericOverflow } from "../finance-errors";
import type { TAccountTransactionDto, TTransactionDto, ZListAccountTransactionsQuery } from "./ledger.schema";

/*
 * The ledger: every posting moves balances with one conditional UPDATE per account, in the
 * posting's own database transaction. The UPDATE takes the account's row lock, so concurrent
 * postings to one account queue on it and each adds to the balance the previous one committed
 * (no lost update under READ COMMITTED); the cost is the same whatever the account's history.
 */

/** One account's balance change within a posting. `field` names the input it came from, for errors. */
export type Move = { accountId: string; delta: bigint; field: string };

export type MovedAccount = { id: string; currency: string; balance: bigint };

type MoveRow = { id: string; currency_code: string; balance: string };

const insufficientBalance = (
  field: string,
  account: { name: string; balance: bigint; currencyCode: string; minorUnits: number },
) =>
  new AppError("BUSINESS_RULE", {
    reason: "finance.insufficient_balance",
    message: `Insufficient balance on account "${account.name}": ${minorToMajorString(account.balance, account.minorUnits)} ${account.currencyCode} available`,
    params: {
      field,
      account: account.name,
      balance: account.balance.toString(),
      currency: account.currencyCode,
    },
  });

/** Why a conditional balance update touched no row: an unknown account, or not enough money. */
const explainRefusedMove = async (tx: Tx, tenantId: string, move: Move): Promise<AppError> => {
  const account = await tx.moneyAccount.findFirst({
    where: { tenantId, id: move.accountId },
    select: {
      name: true,
      balance: true,
      currencyCode: true,
      currency: { select: { currency: { select: { minorUnits: true } } } },
    },
  });
  if (!account)
    return fieldError(move.field, "finance.unknown_account", "is not an account of this organization");
  return insufficientBalance(move.field, { ...account, minorUnits: account.currency.currency.minorUnits });
};

/**
 * Applies `moves` (at most one per account) atomically within `tx`. Accounts are locked in id
 * order, so two postings touching the same pair of accounts cannot deadlock. A non-overdraft
 * account never goes below zero; an unknown account or a shortfall throws (the caller's
 * transaction then rolls back everything it wrote).
 */
export const moveBalances = async (
  tx: Tx,
  tenantId: string,
  moves: readonly Move[],
  now: Date,
): Promise<Map<string, MovedAccount>> => {
  const moved = new Map<string, MovedAccount>();
  const ordered = [...moves].sort((a, b) =>
    a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0,
  );
  for (const move of ordered) {
    let rows: MoveRow[];
    try {
      rows = await tx.$queryRaw<MoveRow[]>`
        UPDATE money_accounts
           SET balance = balance + ${move.delta}::bigint, updated_at = ${now}
         WHERE tenant_id = ${tenantId}::uuid AND id = ${move.accountId}::uuid
           AND (allow_overdraft OR balance + ${move.delta}::bigint >= 0)
     RETURNING id::text, currency_code, balance::text`;
    } catch (error) {
      if (isNumericOverflow(error)) {
        throw new AppError("BUSINESS_RULE", {
          reason: "finance.balance_out_of_range",
          message: "The account's balance would leave the range a balance can hold",
          params: { field: move.field },
        });
      }
      throw error;
    }
    const row = rows[0];
    if (!row) throw await explainRefusedMove(tx, tenantId, move);
    moved.set(row.id, { id: row.id, currency: row.currency_code, balance: BigInt(row.balance) });
  }
  return moved;
};

/** The currency of each of `ids` in the tenant (missing ids are absent): checked before moving money. */
export const accountCurrencies = async (
  tx: Tx,
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, string>> => {
  const rows = await tx.moneyAccount.findMany({
    where: { tenantId, id: { in: [...new Set(ids)] } },
    select: { id: true, currencyCode: true },
  });
  return new Map(rows.map((row) => [row.id, row.currencyCode]));
};

export const transactionSelect = {
  id: true,
  type: true,
  amount: true,
  destinationAmount: true,
  exchangeRate: true,
  date: true,
  originAccountId: true,
  destinationAccountId: true,
  comment: true,
  createdBy: true,
  createdAt: true,
  payment: { select: { id: true } },
  expense: { select: { id: true } },
} satisfies Prisma.FinanceTransactionSelect;

type TransactionRow = Prisma.FinanceTransactionGetPayload<{ select: typeof transactionSelect }>;

export const toTransactionDto = (row: TransactionRow): TTransactionDto => ({
  id: row.id,
  type: row.type,
  amount: row.amount.toString(),
  destinationAmount: row.destinationAmount === null ? null : row.destinationAmount.toString(),
  exchangeRate: row.exchangeRate === null ? null : row.exchangeRate.toString(),
  date: toIsoDate(row.date),
  originAccountId: row.originAccountId,
  destinationAccountId: row.destinationAccountId,
  comment: row.comment,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
  paymentId: row.payment?.id ?? null,
  expenseId: row.expense?.id ?? null,
});

/** What an entry did to one account: in = the destination amount (or amount), out = −amount. */
export const changeFor = (
  row: Pick<TransactionRow, "originAccountId" | "amount" | "destinationAmount">,
  accountId: string,
): bigint => {
  if (row.originAccountId === accountId) return -row.amount;
  return row.destinationAmount ?? row.amount;
};

export const ledgerRepository = {
  listForAccount: async (
    tx: Tx,
    tenantId: string,
    accountId: string,
    query: z.output<typeof ZListAccountTransactionsQuery>,
  ): Promise<{ items: TAccountTransactionDto[]; total: number }> => {
    const where: Prisma.FinanceTransactionWhereInput = {
      tenantId,
      OR: [{ originAccountId: accountId }, { destinationAccountId: accountId }],
      ...(query.type ? { type: query.type } : {}),
      ...(query.from || query.to
        ? {
            date: {
              ...(query.from ? { gte: dateOf(query.from) } : {}),
              ...(query.to ? { lte: dateOf(query.to) } : {}),
            },
          }
        : {}),
    };
    const [rows, total] = await Promise.all([
      tx.financeTransaction.findMany({
        where,
        select: transactionSelect,
        // Ids are UUIDv7: within a day, the order entries were posted.
        orderBy: [{ date: query.order }, { id: query.order }],
        skip: query.offset,
        take: query.limit,
      }),
      tx.financeTransaction.count({ where }),
    ]);
    return {
      items: rows.map((row) => ({ ...toTransactionDto(row), change: changeFor(row, accountId).toString() })),
      total,
    };
  },

  find: async (tx: Tx, tenantId: string, id: string): Promise<TTransactionDto | null> => {
    const row = await tx.financeTransaction.findFirst({ where: { tenantId, id }, select: transactionSelect });
    return row ? toTransactionDto(row) : null;
  },
};
