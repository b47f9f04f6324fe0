import {
  ZCurrencyCode,
  ZIsoDate,
  ZPositiveMinorAmount,
  ZRate,
  ZRequiredLine,
  ZText,
} from "@hisob/kernel/schema";
import { z } from "zod";

const ZComment = ZText(1000);

const differentAccounts = (input: { fromAccountId: string; toAccountId: string }) =>
  input.fromAccountId !== input.toAccountId;
const SAME_ACCOUNT = { message: "must differ from fromAccountId", path: ["toAccountId"] };

export const ZTransferInput = z
  .object({
    fromAccountId: z.uuid(),
    toAccountId: z.uuid(),
    /** Minor units of both accounts' currency, > 0. */
    amount: ZPositiveMinorAmount,
    date: ZIsoDate,
    /** Who the money went through (a bank, a courier), if anyone. */
    counterpartyId: z.uuid().nullable().default(null),
    comment: ZComment.default(""),
  })
  .strict()
  .refine(differentAccounts, SAME_ACCOUNT);
export type TTransferInput = z.input<typeof ZTransferInput>;

/** "1 base = rate quote" in major units, the way banks quote: `{ base: "USD", quote: "UZS", rate: "12650" }`. */
export const ZMarketRate = z
  .object({
    base: ZCurrencyCode,
    quote: ZCurrencyCode,
    /** Units of `quote` one unit of `base` buys, a positive decimal string. */
    rate: ZRate,
  })
  .strict()
  .refine((quote) => quote.base !== quote.quote, { message: "must differ from base", path: ["quote"] })
  .meta({ id: "MarketRate", description: "1 base = rate quote, in major units (either direction)" });
export type TMarketRate = z.input<typeof ZMarketRate>;

/** The three ways to say what the destination receives; exactly one is given. */
export const EXCHANGE_FORMS = ["amountReceived", "marketRate", "rate"] as const;
export type ExchangeForm = (typeof EXCHANGE_FORMS)[number];

/** The exchange form a request uses (the first given; the schema refuses more than one). */
export const exchangeFormOf = (input: Partial<Record<ExchangeForm, unknown>>): ExchangeForm | null =>
  EXCHANGE_FORMS.find((form) => input[form] !== undefined) ?? null;

export const ZExchangeInput = z
  .object({
    fromAccountId: z.uuid(),
    toAccountId: z.uuid(),
    /** Minor units of the origin account's currency, > 0. */
    amount: ZPositiveMinorAmount,
    /** Form (a): minor units of the destination's currency that arrive — exactly what lands. */
    amountReceived: ZPositiveMinorAmount.optional(),
    /** Form (b): a market quote naming the two accounts' currencies, in either direction. */
    marketRate: ZMarketRate.optional(),
    /**
     * Form (c), kept for compatibility: destination minor units per origin minor unit, as a decimal
     * string. The destination receives trunc(amount × rate).
     */
    rate: ZRate.optional(),
    /**
     * Post even when the plausibility guard would refuse: a rate more than EXCHANGE_RATE_MARGIN_PERCENT
     * away from the pair's last exchange; for a pair never exchanged, a rate more than
     * EXCHANGE_RATE_USUAL_FACTOR times off the currencies' typical rate, or form (c) without one.
     */
    confirmRate: z.boolean().default(false),
    date: ZIsoDate,
    /** Who the money went through (a bank, an exchange office), if anyone. */
    counterpartyId: z.uuid().nullable().default(null),
    comment: ZComment.default(""),
  })
  .strict()
  .refine(differentAccounts, SAME_ACCOUNT)
  .superRefine((input, ctx) => {
    const given = EXCHANGE_FORMS.filter((form) => input[form] !== undefined);
    if (given.length === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["amountReceived"],
        message: "is required: give one of amountReceived, marketRate or rate",
      });
    }
    for (const form of given.slice(1)) {
      ctx.addIssue({ code: "custom", path: [form], message: `cannot be combined with ${given[0]}` });
    }
  });
export type TExchangeInput = z.input<typeof ZExchangeInput>;

/**
 * How far (in percent) an exchange's rate may be from the tenant's last exchange of the same two
 * currencies before it needs `confirmRate: true`.
 */
export const EXCHANGE_RATE_MARGIN_PERCENT = 10;

/**
 * For a pair the organization has never exchanged: how many times above or below the currencies'
 * typical rate (typical-rates.ts) a rate may be before it needs `confirmRate: true`.
 */
export const EXCHANGE_RATE_USUAL_FACTOR = 3;

/**
 * The plausibility check's refusals (docs/decisions/0016-exchange-plausibility.md): each is posted
 * anyway by the same request with `confirmRate: true`, so a client offers exactly that.
 */
export const EXCHANGE_GUARD_REASONS = [
  "finance.exchange_rate_implausible",
  "finance.exchange_rate_inverted",
  "finance.exchange_rate_unusual",
  "finance.exchange_rate_unconfirmed",
] as const;
export type TExchangeGuardReason = (typeof EXCHANGE_GUARD_REASONS)[number];

/** Reversing a transfer or an exchange: why (kept with the reversal and in the audit log). */
export const ZReverseInput = z
  .object({
    reason: ZRequiredLine(500),
    /** The reversal's date; the reversed entry's own date when absent (the period then nets to zero). */
    date: ZIsoDate.optional(),
  })
  .strict();
export type TReverseInput = z.input<typeof ZReverseInput>;

/** What may change on a posted transfer or exchange: nothing that moves money. */
export const ZUpdateMovementInput = z
  .object({
    date: ZIsoDate.optional(),
    comment: ZComment.optional(),
    counterpartyId: z.uuid().nullable().optional(),
  })
  .strict()
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: "must name at least one field to change",
  });
export type TUpdateMovementInput = z.input<typeof ZUpdateMovementInput>;
