import { ZPositiveMinorAmount, ZRate, ZText } from "@hisob/kernel/schema";
import { z } from "zod";
import { ZIsoDate } from "../dates";

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
    comment: ZComment.default(""),
  })
  .strict()
  .refine(differentAccounts, SAME_ACCOUNT);
export type TTransferInput = z.input<typeof ZTransferInput>;

export const ZExchangeInput = z
  .object({
    fromAccountId: z.uuid(),
    toAccountId: z.uuid(),
    /** Minor units of the origin account's currency, > 0. */
    amount: ZPositiveMinorAmount,
    /**
     * Destination minor units per origin minor unit, as a decimal string. The destination
     * receives trunc(amount × rate).
     */
    rate: ZRate,
    date: ZIsoDate,
    comment: ZComment.default(""),
  })
  .strict()
  .refine(differentAccounts, SAME_ACCOUNT);
export type TExchangeInput = z.input<typeof ZExchangeInput>;
