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
    /**
     * The general ledger (docs/decisions/0093-general-ledger.md): debits minus credits over every
     * line in the base currency (must be 0), the entries that do not balance, and the money accounts
     * whose ledger balance in their own currency is not their cash balance. There must never be one.
     */
    ledger: z.object({
      debitsMinusCredits: z.string(),
      unbalancedEntries: z.array(z.object({ entryId: z.uuid(), difference: z.string() })),
      accountDifferences: z.array(
        z.object({
          accountId: z.uuid(),
          name: z.string(),
          currency: z.string(),
          cash: z.string(),
          ledger: z.string(),
        }),
      ),
      /**
       * The balance sheet over every line (docs/decisions/0101-books-reports.md): assets (debit
       * balances) less liabilities, equity and the income and expenses not yet closed (credit
       * balances), base currency; must be 0. Lines on no account of the chart count nowhere and
       * show here.
       */
      balanceSheet: z.object({
        assets: z.string(),
        liabilities: z.string(),
        equity: z.string(),
        retainedEarnings: z.string(),
        difference: z.string(),
      }),
    }),
    ok: z.boolean(),
  })
  .meta({ id: "ReconcileReport" });
export type TReconcileReport = z.infer<typeof ZReconcileReport>;
