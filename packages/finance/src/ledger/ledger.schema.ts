import { periodInOrder, ZIsoDate, ZPagination } from "@hisob/kernel/schema";
import { z } from "zod";

export const TRANSACTION_TYPES = ["income", "expense", "transfer", "exchange", "opening_balance"] as const;

export const ZTransactionDto = z
  .object({
    id: z.uuid(),
    type: z.enum(TRANSACTION_TYPES),
    /** Minor units leaving the origin account (income: entering the destination), decimal string. */
    amount: z.string(),
    /** Minor units entering the destination when they differ from `amount` (exchanges). */
    destinationAmount: z.string().nullable(),
    /** Exchanges only: destination minor units per origin minor unit, decimal string; trunc(amount × rate) = destinationAmount. */
    exchangeRate: z.string().nullable(),
    date: z.iso.date(),
    originAccountId: z.uuid().nullable(),
    destinationAccountId: z.uuid().nullable(),
    comment: z.string(),
    /** Transfers and exchanges: who the money went through, if anyone. */
    counterpartyId: z.uuid().nullable(),
    /** This entry is the exact opposite of that transfer or exchange (a reversal). */
    reversalOfId: z.uuid().nullable(),
    /** Why the reversal was posted (reversals only). */
    reversalReason: z.string().nullable(),
    /** The reversal that undid this entry, if any. */
    reversedById: z.uuid().nullable(),
    createdBy: z.uuid(),
    createdAt: z.iso.datetime(),
    /** The payment or expense this entry posts, if any. */
    paymentId: z.uuid().nullable(),
    expenseId: z.uuid().nullable(),
  })
  .meta({ id: "Transaction" });
export type TTransactionDto = z.infer<typeof ZTransactionDto>;

export const ZAccountTransactionDto = ZTransactionDto.extend({
  /** What this entry did to the account's balance, in the account's currency (negative: out). */
  change: z.string(),
}).meta({ id: "AccountTransaction" });
export type TAccountTransactionDto = z.infer<typeof ZAccountTransactionDto>;

export const ZAccountTransactionFilters = z.object({
  from: ZIsoDate.optional().describe("First date, inclusive"),
  to: ZIsoDate.optional().describe("Last date, inclusive"),
  type: z.enum(TRANSACTION_TYPES).optional(),
  order: z.enum(["asc", "desc"]).default("desc"),
});

export const ZListAccountTransactionsQuery = ZPagination.extend(ZAccountTransactionFilters.shape).refine(
  ...periodInOrder,
);
export type TListAccountTransactionsQuery = z.input<typeof ZListAccountTransactionsQuery>;
