import { isNumericOverflow, Prisma, type Tx } from "@hisob/db";
import { AppError } from "@hisob/kernel";
import { explainRefusedMove } from "./ledger";

/**
 * A payment or expense posted as ONE statement: the balance UPDATE with its overdraft condition, the
 * ledger entry and the document are data-modifying CTEs of a single statement, so the posting is one
 * round trip and all-or-nothing by construction — an account that is unknown or short of money
 * updates no row, so nothing is inserted; an unknown counterparty or category fails the document's
 * tenant-scoped foreign key and the whole statement with it. The UPDATE comes first: within one
 * statement the account's row lock is held until commit either way. The outbox event stays the
 * outbox's own statement (`outbox.raise`, in the same transaction): the outbox owns its table.
 */
export type DocumentPosting = {
  tenantId: string;
  table: "payments" | "expenses";
  transactionType: "income" | "expense";
  /** Signed change of the account's balance (payments add, expenses subtract). */
  delta: bigint;
  accountId: string;
  /** Which side of the ledger entry the account is on. */
  side: "origin" | "destination";
  transactionId: string;
  documentId: string;
  amount: bigint;
  /** `YYYY-MM-DD`. */
  date: string;
  counterpartyId: string | null;
  categoryId: string | null;
  comment: string;
  createdBy: string;
  now: Date;
};

type PostedRow = { currency_code: string | null };

/** Posts `p` in `tx`; returns the account's currency. */
export const postDocument = async (tx: Tx, p: DocumentPosting): Promise<string> => {
  const table = Prisma.raw(p.table === "payments" ? "payments" : "expenses");
  const origin = p.side === "origin" ? p.accountId : null;
  const destination = p.side === "destination" ? p.accountId : null;
  let rows: PostedRow[];
  try {
    rows = await tx.$queryRaw<PostedRow[]>`
      WITH moved AS (
        UPDATE money_accounts
           SET balance = balance + ${p.delta}::bigint, updated_at = ${p.now}
         WHERE tenant_id = ${p.tenantId}::uuid AND id = ${p.accountId}::uuid
           AND (allow_overdraft OR balance + ${p.delta}::bigint >= 0)
     RETURNING currency_code
      ), entry AS (
        INSERT INTO transactions (id, tenant_id, type, amount, date, origin_account_id,
                                  destination_account_id, comment, created_by, created_at)
        SELECT ${p.transactionId}::uuid, ${p.tenantId}::uuid, ${p.transactionType}::transaction_type,
               ${p.amount}::bigint, ${p.date}::date, ${origin}::uuid, ${destination}::uuid, ${p.comment},
               ${p.createdBy}::uuid, ${p.now}
          FROM moved
     RETURNING id
      ), document AS (
        INSERT INTO ${table} (id, tenant_id, account_id, counterparty_id, category_id, amount, date,
                              comment, transaction_id, created_by, created_at, updated_at)
        SELECT ${p.documentId}::uuid, ${p.tenantId}::uuid, ${p.accountId}::uuid, ${p.counterpartyId}::uuid,
               ${p.categoryId}::uuid, ${p.amount}::bigint, ${p.date}::date, ${p.comment}, entry.id,
               ${p.createdBy}::uuid, ${p.now}, ${p.now}
          FROM entry
     RETURNING id
      )
      SELECT (SELECT currency_code FROM moved) AS currency_code, (SELECT count(*) FROM document) AS documents`;
  } catch (error) {
    if (isNumericOverflow(error)) {
      throw new AppError("BUSINESS_RULE", {
        reason: "finance.balance_out_of_range",
        message: "The account's balance would leave the range a balance can hold",
        params: { field: "accountId" },
      });
    }
    throw error;
  }
  const currency = rows[0]?.currency_code;
  if (!currency) {
    throw await explainRefusedMove(tx, p.tenantId, {
      accountId: p.accountId,
      delta: p.delta,
      field: "accountId",
    });
  }
  return currency;
};
