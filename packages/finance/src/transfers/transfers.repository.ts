import type { Tx } from "@hisob/db";
import type { CurrencyDigits } from "./rates";

/** A transfer or an exchange: the two kinds of ledger entry that move money between two accounts. */
export type MovementKind = "transfer" | "exchange";

/** The last exchange of a pair: what left, what arrived, and the currency it left in. */
export type LastExchangeRow = { amount: string; destination_amount: string; from_code: string };

/** What a new transfer or exchange entry holds. */
export type MovementEntry = {
  id: string;
  tenantId: string;
  type: MovementKind;
  amount: bigint;
  destinationAmount: bigint | null;
  exchangeRate: string | null;
  date: Date;
  originAccountId: string;
  destinationAccountId: string;
  comment: string;
  counterpartyId: string | null;
  reversalOfId: string | null;
  reversalReason: string | null;
  createdBy: string;
  createdAt: Date;
};

/**
 * Transfers and exchanges of one tenant (rows of the ledger's `transactions`, read back through
 * `ledgerRepository`); every query carries the tenant (wall 1; RLS is wall 2).
 */
export const transfersRepository = {
  /** The currencies (with their minor digits) of those of the accounts that exist in the tenant. */
  currenciesOf: async (
    tx: Tx,
    tenantId: string,
    accountIds: readonly string[],
  ): Promise<Map<string, CurrencyDigits>> => {
    const rows = await tx.moneyAccount.findMany({
      where: { tenantId, id: { in: [...accountIds] } },
      select: {
        id: true,
        currencyCode: true,
        currency: { select: { currency: { select: { minorUnits: true } } } },
      },
    });
    return new Map(
      rows.map((row) => [row.id, { code: row.currencyCode, minorUnits: row.currency.currency.minorUnits }]),
    );
  },

  counterpartyExists: async (tx: Tx, tenantId: string, id: string): Promise<boolean> =>
    (await tx.counterparty.findFirst({ where: { tenantId, id }, select: { id: true } })) !== null,

  /** The last exchange of the same two currencies (either direction) not reversed and not a reversal. */
  lastExchangeOf: async (
    tx: Tx,
    tenantId: string,
    from: string,
    to: string,
  ): Promise<LastExchangeRow | null> => {
    const rows = await tx.$queryRaw<LastExchangeRow[]>`
    SELECT t.amount::text AS amount, t.destination_amount::text AS destination_amount, o.currency_code AS from_code
      FROM transactions t
      JOIN money_accounts o ON o.tenant_id = t.tenant_id AND o.id = t.origin_account_id
      JOIN money_accounts d ON d.tenant_id = t.tenant_id AND d.id = t.destination_account_id
     WHERE t.tenant_id = ${tenantId}::uuid AND t.type = 'exchange' AND t.reversal_of_id IS NULL
       AND ((o.currency_code = ${from} AND d.currency_code = ${to})
         OR (o.currency_code = ${to} AND d.currency_code = ${from}))
       AND NOT EXISTS (SELECT 1 FROM transactions r
                        WHERE r.tenant_id = t.tenant_id AND r.reversal_of_id = t.id)
     ORDER BY t.created_at DESC, t.id DESC
     LIMIT 1`;
    return rows[0] ?? null;
  },

  /** Row-locks a transfer or exchange against a concurrent reversal or edit; false when there is none. */
  lock: async (tx: Tx, tenantId: string, kind: MovementKind, id: string): Promise<boolean> => {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM transactions
       WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid AND type = ${kind}::transaction_type
         FOR UPDATE`;
    return rows.length > 0;
  },

  insert: async (tx: Tx, entry: MovementEntry): Promise<void> => {
    await tx.financeTransaction.create({ data: entry, select: { id: true } });
  },

  /** Undefined fields stay as they are. */
  updateFacts: async (
    tx: Tx,
    tenantId: string,
    id: string,
    data: { date?: Date; comment?: string; counterpartyId?: string | null },
  ): Promise<void> => {
    await tx.financeTransaction.update({
      where: { tenantId_id: { tenantId, id } },
      data: {
        ...(data.date !== undefined ? { date: data.date } : {}),
        ...(data.comment !== undefined ? { comment: data.comment } : {}),
        ...(data.counterpartyId !== undefined ? { counterpartyId: data.counterpartyId } : {}),
      },
      select: { id: true },
    });
  },
};
