import { EXCHANGE_GUARD_REASONS, ZTransferInput } from "@hisob/finance/schema";
import { maxLengthOf } from "@hisob/ui/limits";
import { formatDecimal } from "@hisob/ui/numbers";

/*
 * The transfer and exchange form's values and constants: what it holds, which of its fields show the
 * server's issues, and the server's names for them.
 */

export type Mode = "transfer" | "exchange";
/** How an exchange is entered: the amount that arrived, or the bank's quote (1 base = rate quote). */
export type How = "received" | "quote";
export type Values = {
  fromAccountId: string;
  toAccountId: string;
  amount: string;
  how: How;
  amountReceived: string;
  quoteBase: string;
  quoteRate: string;
  date: string;
  comment: string;
};
export const FIELDS = [
  "fromAccountId",
  "toAccountId",
  "amount",
  "amountReceived",
  "quoteRate",
  "date",
  "comment",
] as const;
export const EMPTY: Values = {
  fromAccountId: "",
  toAccountId: "",
  amount: "",
  how: "received",
  amountReceived: "",
  quoteBase: "",
  quoteRate: "",
  date: "",
  comment: "",
};
/** The server's field names → this form's. */
export const FORM_FIELD: Record<string, string> = {
  "marketRate.rate": "quoteRate",
  marketRate: "quoteRate",
  "marketRate.quote": "quoteRate",
  "marketRate.base": "quoteRate",
  rate: "quoteRate",
};
export const GUARD_REASONS = new Set<string>(EXCHANGE_GUARD_REASONS);
export const COMMENT_MAX = maxLengthOf(ZTransferInput.shape.comment);

/** "1 USD = 12 650 UZS" as the language writes numbers. */
export const quoteText = (
  quote: { base: string; quote: string; rate: string },
  locale: Parameters<typeof formatDecimal>[1],
) => `1 ${quote.base} = ${formatDecimal(quote.rate, locale)} ${quote.quote}`;
