import { ZIsoDate, ZMinorAmount, ZText } from "@hisob/kernel/schema";
import { z } from "zod";

/**
 * An account's opening balance: what it already held when its books moved here. Negative only for
 * an account that allows overdraft (it starts owing). "0" removes it.
 */
export const ZSetOpeningBalanceInput = z.strictObject({
  amount: ZMinorAmount.describe("Minor units of the account's currency; negative: the account starts owing"),
  date: ZIsoDate.describe("The day the balance is as of"),
  comment: ZText(1000).default(""),
});
export type TSetOpeningBalanceInput = z.input<typeof ZSetOpeningBalanceInput>;

export const ZOpeningBalanceDto = z
  .object({
    accountId: z.uuid(),
    /** The ledger entry that holds it (type `opening_balance`). */
    transactionId: z.uuid(),
    amount: z.string().describe("Minor units, signed"),
    date: z.iso.date(),
    comment: z.string(),
    /** False once anything else was posted to the account: it is then part of the books. */
    isEditable: z.boolean(),
  })
  .meta({ id: "OpeningBalance" });
export type TOpeningBalanceDto = z.infer<typeof ZOpeningBalanceDto>;
