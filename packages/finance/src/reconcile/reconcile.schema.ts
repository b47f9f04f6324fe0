import { z } from "zod";

export const ZBalanceDrift = z.object({
  accountId: z.uuid(),
  name: z.string(),
  currency: z.string(),
  /** The balance postings maintained, minor units. */
  stored: z.string(),
  /** The balance recomputed from every transaction, minor units. */
  computed: z.string(),
});

export const ZReconcileReport = z
  .object({
    checkedAt: z.iso.datetime(),
    accountsChecked: z.number().int(),
    /** Accounts whose stored balance differs from their transactions. There must never be one. */
    drift: z.array(ZBalanceDrift),
    /** Payments or expenses whose ledger entry does not match them (amount, account, date or type). */
    mismatchedDocuments: z.array(z.object({ kind: z.enum(["payment", "expense"]), id: z.uuid() })),
    /**
     * Debts whose outstanding amount is not their amount minus their settlements and write-off, or
     * with a settlement whose payment or expense has another amount.
     */
    mismatchedDebts: z.array(z.object({ debtId: z.uuid(), stored: z.string(), computed: z.string() })),
    ok: z.boolean(),
  })
  .meta({ id: "ReconcileReport" });
export type TReconcileReport = z.infer<typeof ZReconcileReport>;
