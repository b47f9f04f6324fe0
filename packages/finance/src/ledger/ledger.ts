import { isNumericOverflow, Prisma, type Tx } from "@hisob/db";
import { formatMoney } from "@hisob/i18n";
import { AppError, moneyParam } from "@hisob/kernel";
import { dateOf, toIsoDate } from "@hisob/kernel/schema";
import type { z } from "zod";
import { fieldError } from "../finance-errors";
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

export const insufficientBalance = (
  field: string,
  account: { name: string; balance: bigint; currencyCode: string; minorUnits: number },
) =>
  new AppError("BUSINESS_RULE", {
    reason: "finance.insufficient_balance",
    message: `Insufficient balance on account "${account.name}": ${formatMoney(account.balance, account.currencyCode, account.minorUnits, "en")} available.`,
    params: {
      field,
      account: account.name,
      balance: account.balance.toString(),
      currency: account.currencyCode,
      available: moneyParam(account.balance, account.currencyCode, account.minorUnits),
    },
  });

/** A bigint or numeric overflow in a balance UPDATE, as the business rule it breaks (on `field`). */
export const outOfRange = (error: unknown, field: string): unknown =>
  isNumericOverflow(error)
    ? new AppError("BUSINESS_RULE", {
        reason: "finance.balance_out_of_range",
        message: "The account's balance would leave the range a balance can hold",
        params: { field },
      })
    : error;

/** Why a conditional balance update touched no row: an unknown account, or not enough money. */
export const explainRefusedMove = async (tx: Tx, tenantId: string, move: Move): Promise<AppError> => {
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
      throw outOfRange(error, move.field);
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
  counterpartyId: true,
  reversalOfId: true,
  reversalReason: true,
  reversedBy: { select: { id: true } },
  createdBy: true,
  createdAt: true,
  documentId: true,
} satisfies Prisma.FinanceTransactionSelect;

/** numeric(40,20) prints every decimal place ("12650.50000000000000000000" → "12650.5"); never exponent notation. */
const plainRate = (text: string): string => (text.includes(".") ? text.replace(/\.?0+$/, "") : text);

type TransactionRow = Prisma.FinanceTransactionGetPayload<{ select: typeof transactionSelect }>;

export const toTransactionDto = (row: TransactionRow): TTransactionDto => ({
  id: row.id,
  type: row.type,
  amount: row.amount.toString(),
  destinationAmount: row.destinationAmount === null ? null : row.destinationAmount.toString(),
  exchangeRate: row.exchangeRate === null ? null : plainRate(row.exchangeRate.toFixed()),
  date: toIsoDate(row.date),
  originAccountId: row.originAccountId,
  destinationAccountId: row.destinationAccountId,
  comment: row.comment,
  counterpartyId: row.counterpartyId,
  reversalOfId: row.reversalOfId,
  reversalReason: row.reversalReason,
  reversedById: row.reversedBy?.id ?? null,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
  // The document an entry posts is on the entry (a payment posts an income, an expense an expense).
  paymentId: row.type === "income" ? row.documentId : null,
  expenseId: row.type === "expense" ? row.documentId : null,
});

export type AccountEntryRow = {
  id: string;
  type: "income" | "expense" | "transfer" | "exchange" | "opening_balance";
  amount: string;
  destination_amount: string | null;
  exchange_rate: string | null;
  date: Date;
  origin_account_id: string | null;
  destination_account_id: string | null;
  comment: string;
  counterparty_id: string | null;
  reversal_of_id: string | null;
  reversal_reason: string | null;
  reversed_by_id: string | null;
  created_by: string;
  created_at: Date;
  /** What the entry did to this account's balance (negative: out). */
  change: string;
  counter_account_name: string | null;
  payment_id: string | null;
  expense_id: string | null;
};

type AccountEntryFilters = {
  tenantId: string;
  accountId: string;
  type?: string | undefined;
  from?: Date | null;
  to?: Date | null;
};

const entryFilters = (o: AccountEntryFilters) => Prisma.sql`
  ${o.type ? Prisma.sql`AND t.type = ${o.type}::transaction_type` : Prisma.empty}
  ${o.from ? Prisma.sql`AND t.date >= ${o.from}::date` : Prisma.empty}
  ${o.to ? Prisma.sql`AND t.date <= ${o.to}::date` : Prisma.empty}`;

/**
 * A page of one account's entries in (date, id) order. Money out and money in are two index range
 * scans, each cut at what the page can need, then merged — an OR across the two account columns
 * would read the account's whole history for every page. `after` continues a keyset walk
 * (downloads); `skip` pages by offset (the JSON list).
 */
export const accountEntries = (
  tx: Tx,
  o: AccountEntryFilters & {
    order: "asc" | "desc";
    after?: { date: Date; id: string } | undefined;
    take: number;
    skip: number;
  },
): Promise<AccountEntryRow[]> => {
  const direction = Prisma.raw(o.order === "asc" ? "ASC" : "DESC");
  const filters = Prisma.sql`${entryFilters(o)} ${
    o.after
      ? o.order === "asc"
        ? Prisma.sql`AND (t.date, t.id) > (${o.after.date}::date, ${o.after.id}::uuid)`
        : Prisma.sql`AND (t.date, t.id) < (${o.after.date}::date, ${o.after.id}::uuid)`
      : Prisma.empty
  }`;
  const reach = o.take + o.skip;
  return tx.$queryRaw<AccountEntryRow[]>`
    SELECT t.id::text, t.type::text AS type, t.amount::text AS amount, t.destination_amount::text AS destination_amount,
           t.exchange_rate::text AS exchange_rate, t.date, t.origin_account_id::text AS origin_account_id,
           t.destination_account_id::text AS destination_account_id, t.comment, t.created_by::text AS created_by,
           t.counterparty_id::text AS counterparty_id, t.reversal_of_id::text AS reversal_of_id, t.reversal_reason,
           r.id::text AS reversed_by_id,
           t.created_at, e.change::text AS change, a.name AS counter_account_name,
           CASE WHEN t.type = 'income' THEN t.document_id::text END AS payment_id,
           CASE WHEN t.type = 'expense' THEN t.document_id::text END AS expense_id
      FROM ((SELECT t.id, t.date, -t.amount AS change, t.destination_account_id AS counter_id
               FROM transactions t
              WHERE t.tenant_id = ${o.tenantId}::uuid AND t.origin_account_id = ${o.accountId}::uuid ${filters}
              ORDER BY t.date ${direction}, t.id ${direction} LIMIT ${reach})
            UNION ALL
            (SELECT t.id, t.date, COALESCE(t.destination_amount, t.amount), t.origin_account_id
               FROM transactions t
              WHERE t.tenant_id = ${o.tenantId}::uuid AND t.destination_account_id = ${o.accountId}::uuid ${filters}
              ORDER BY t.date ${direction}, t.id ${direction} LIMIT ${reach})
             ORDER BY date ${direction}, id ${direction}
             LIMIT ${o.take} OFFSET ${o.skip}) e
      JOIN transactions t ON t.tenant_id = ${o.tenantId}::uuid AND t.id = e.id
      LEFT JOIN money_accounts a ON a.tenant_id = ${o.tenantId}::uuid AND a.id = e.counter_id
      LEFT JOIN transactions r ON r.tenant_id = ${o.tenantId}::uuid AND r.reversal_of_id = e.id
     ORDER BY e.date ${direction}, e.id ${direction}`;
};

/**
 * How many entries of the account match. Without a type, from the balance checkpoints
 * (`account_day_totals`, kept in step with the ledger by its triggers, so in the same snapshot):
 * per day `entries` counts the day's entries but an opening balance, and `opening` is that opening
 * balance's amount — an account has at most one, never of 0 (set under the account's lock, removed
 * when set to 0, and `amount > 0` holds for every entry), so a day with `opening <> 0` holds exactly
 * one. That is a row per day instead of every entry: on an account of 600,000 entries the count took
 * ~90 ms of a ~100 ms page. With a type, two index counts, one per side.
 */
const countAccountEntries = async (tx: Tx, o: AccountEntryFilters): Promise<number> => {
  if (!o.type) {
    const [days] = await tx.$queryRaw<[{ total: number }]>`
      SELECT (COALESCE(sum(d.entries), 0) + count(*) FILTER (WHERE d.opening <> 0))::int AS total
        FROM account_day_totals d
       WHERE d.tenant_id = ${o.tenantId}::uuid AND d.account_id = ${o.accountId}::uuid
         ${o.from ? Prisma.sql`AND d.date >= ${o.from}::date` : Prisma.empty}
         ${o.to ? Prisma.sql`AND d.date <= ${o.to}::date` : Prisma.empty}`;
    return days.total;
  }
  const [row] = await tx.$queryRaw<[{ total: number }]>`
    SELECT ((SELECT count(*) FROM transactions t
              WHERE t.tenant_id = ${o.tenantId}::uuid AND t.origin_account_id = ${o.accountId}::uuid ${entryFilters(o)})
          + (SELECT count(*) FROM transactions t
              WHERE t.tenant_id = ${o.tenantId}::uuid AND t.destination_account_id = ${o.accountId}::uuid ${entryFilters(o)}))::int AS total`;
  return row.total;
};

const entryDto = (row: AccountEntryRow): TAccountTransactionDto => ({
  id: row.id,
  type: row.type,
  amount: row.amount,
  destinationAmount: row.destination_amount,
  exchangeRate: row.exchange_rate === null ? null : plainRate(row.exchange_rate),
  date: toIsoDate(row.date),
  originAccountId: row.origin_account_id,
  destinationAccountId: row.destination_account_id,
  comment: row.comment,
  counterpartyId: row.counterparty_id,
  reversalOfId: row.reversal_of_id,
  reversalReason: row.reversal_reason,
  reversedById: row.reversed_by_id,
  createdBy: row.created_by,
  createdAt: row.created_at.toISOString(),
  paymentId: row.payment_id,
  expenseId: row.expense_id,
  change: row.change,
});

export const ledgerRepository = {
  listForAccount: async (
    tx: Tx,
    tenantId: string,
    accountId: string,
    query: z.output<typeof ZListAccountTransactionsQuery>,
  ): Promise<{ items: TAccountTransactionDto[]; total: number }> => {
    const filters = {
      tenantId,
      accountId,
      type: query.type,
      from: query.from ? dateOf(query.from) : null,
      to: query.to ? dateOf(query.to) : null,
    };
    // Ids are UUIDv7: within a day, the order entries were posted.
    const [rows, total] = await Promise.all([
      accountEntries(tx, { ...filters, order: query.order, take: query.limit, skip: query.offset }),
      countAccountEntries(tx, filters),
    ]);
    return { items: rows.map(entryDto), total };
  },

  find: async (tx: Tx, tenantId: string, id: string): Promise<TTransactionDto | null> => {
    const row = await tx.financeTransaction.findFirst({ where: { tenantId, id }, select: transactionSelect });
    return row ? toTransactionDto(row) : null;
  },
};
