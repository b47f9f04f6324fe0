import { ZCurrencyCode, ZLine, ZPagination, ZRequiredLine, ZText } from "@hisob/kernel/schema";
import { z } from "zod";

const ZName = ZRequiredLine(100);
const ZNumber = ZLine(64);
const ZDescription = ZText(1000);

export const ZCreateMoneyAccountInput = z
  .object({
    name: ZName,
    /** Bank account or card number; free text. */
    number: ZNumber.default(""),
    /** One of the tenant's selected currencies; fixed for the account's life. */
    currency: ZCurrencyCode,
    allowOverdraft: z.boolean().default(false),
    description: ZDescription.default(""),
  })
  .strict();
export type TCreateMoneyAccountInput = z.input<typeof ZCreateMoneyAccountInput>;

export const ZUpdateMoneyAccountInput = z
  .object({
    name: ZName.optional(),
    number: ZNumber.optional(),
    allowOverdraft: z.boolean().optional(),
    description: ZDescription.optional(),
  })
  .strict();
export type TUpdateMoneyAccountInput = z.input<typeof ZUpdateMoneyAccountInput>;

export const ACCOUNT_SORT_FIELDS = ["name", "createdAt", "balance"] as const;

export const ZListMoneyAccountsQuery = ZPagination.extend({
  sortBy: z.enum(ACCOUNT_SORT_FIELDS).default("name"),
  order: z.enum(["asc", "desc"]).default("asc"),
  currency: ZCurrencyCode.optional(),
  /** Substring of the name or number, case-insensitive. */
  search: ZRequiredLine(100).optional(),
});
export type TListMoneyAccountsQuery = z.input<typeof ZListMoneyAccountsQuery>;

export const ZMoneyAccountDto = z
  .object({
    id: z.uuid(),
    name: z.string(),
    number: z.string(),
    currency: z.string(),
    /** Minor units as a decimal integer string. */
    balance: z.string(),
    allowOverdraft: z.boolean(),
    description: z.string(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "MoneyAccount" });
export type TMoneyAccountDto = z.infer<typeof ZMoneyAccountDto>;
